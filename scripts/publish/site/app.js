/* wirebench pages: render the JSON each page carries inline. No framework; Chart.js for charts. */
(() => {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const root = document.body.dataset.root;
  const main = document.getElementById("main");
  const h = (tag, attrs, ...kids) => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids.flat(Infinity)) if (kid !== null && kid !== undefined && kid !== false) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    return el;
  };
  const fmt = (n, d = 1) => (n === null || n === undefined ? "–" : Number(n).toFixed(d));
  /** A check's basis: the ticket sentence it enforces (quoted) or the vendor behaviour it rests on. */
  const basisText = (b) => b?.ticket ?? b?.vendor ?? "";
  const basisCell = (b) =>
    b?.ticket
      ? [h("span", { class: "tag basis-ticket" }, "ticket"), h("q", {}, b.ticket)]
      : b?.vendor
        ? [h("span", { class: "tag basis-vendor" }, "vendor"), b.vendor]
        : h("span", { class: "muted" }, "–");
  const pct = (n) => (n === null || n === undefined ? "–" : `${(100 * n).toFixed(0)}%`);
  const slug = (s) => String(s).replace(/[^A-Za-z0-9._-]+/g, "_");
  const section = (title, ...kids) => h("section", { "aria-labelledby": `h-${slug(title)}` }, h("h2", { id: `h-${slug(title)}` }, title), ...kids);
  const wrap = (table) => h("div", { class: "table-wrap" }, table);
  const done = () => main.querySelector(".loading")?.remove();

  /** A table whose column headers sort it (keyboard-operable buttons). */
  function sortableTable(columns, rows, caption) {
    let sortBy = null;
    let dir = 1;
    const tbody = h("tbody");
    const fill = () => {
      tbody.replaceChildren();
      const sorted =
        sortBy === null
          ? rows
          : [...rows].sort((a, b) => {
              const x = columns[sortBy].value(a);
              const y = columns[sortBy].value(b);
              return (x < y ? -1 : x > y ? 1 : 0) * dir;
            });
      for (const r of sorted)
        tbody.append(
          h(
            "tr",
            {},
            columns.map((c) => h("td", { class: c.num ? "num" : null }, c.cell(r))),
          ),
        );
    };
    const head = h(
      "tr",
      {},
      columns.map((c, i) =>
        h(
          "th",
          { scope: "col", class: c.num ? "num" : null, "aria-sort": "none" },
          h(
            "button",
            {
              type: "button",
              onclick: (ev) => {
                dir = sortBy === i ? -dir : c.num ? -1 : 1;
                sortBy = i;
                for (const th of head.children) th.setAttribute("aria-sort", "none");
                ev.currentTarget.parentElement.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
                fill();
              },
            },
            c.label,
          ),
        ),
      ),
    );
    fill();
    return wrap(h("table", {}, h("caption", { class: "muted" }, caption), h("thead", {}, head), tbody));
  }

  function leaderboardPage() {
    const tasks = data.tasks;
    const filters = { surface: "", kind: "", docs: "" };
    const scoreOf = (r) => (filters.surface ? r.by_surface[filters.surface] : filters.kind ? r.by_kind[filters.kind] : filters.docs ? r.by_docs_profile[filters.docs] : r.mean_score);
    const options = (values) => [h("option", { value: "" }, "all"), ...[...new Set(values)].sort().map((v) => h("option", { value: v }, v))];
    const metas = Object.values(tasks).filter(Boolean);
    const select = (key, label, values) =>
      h(
        "label",
        {},
        `${label} `,
        h(
          "select",
          {
            onchange: (e) => {
              for (const k of Object.keys(filters)) filters[k] = "";
              filters[key] = e.target.value;
              for (const s of main.querySelectorAll(".filters select")) if (s !== e.target) s.value = "";
              render();
            },
          },
          options(values),
        ),
      );
    const tableHost = h("div");
    const chartCanvas = h("canvas", { role: "img", "aria-label": "Mean task score of each model and lane with its 95% confidence interval" });
    const heatCanvas = h("canvas", { role: "img", "aria-label": "Score of each model and lane on each task" });
    let chart = null;
    function render() {
      const rows = data.rows.map((r) => ({ ...r, shown: scoreOf(r) ?? null }));
      tableHost.replaceChildren(
        sortableTable(
          [
            { label: "Rank", num: true, value: (r) => r.rank, cell: (r) => r.rank },
            { label: "Model", value: (r) => r.model, cell: (r) => h("a", { href: `${root}/models/${slug(r.model)}.html` }, r.model) },
            { label: "Lane", value: (r) => r.lane, cell: (r) => r.lane },
            { label: "Score", num: true, value: (r) => r.shown ?? -1, cell: (r) => fmt(r.shown) },
            { label: "95% CI", num: true, value: (r) => r.score_ci.low, cell: (r) => `${fmt(r.score_ci.low)}–${fmt(r.score_ci.high)}` },
            { label: "Solve rate", num: true, value: (r) => r.solve_rate, cell: (r) => `${pct(r.solve_rate)} (${pct(r.solve_ci.low)}–${pct(r.solve_ci.high)})` },
            { label: "pass^k", num: true, value: (r) => r.pass_k?.value ?? -1, cell: (r) => (r.pass_k ? `${pct(r.pass_k.value)} (k=${r.pass_k.k})` : "–") },
            { label: "Tokens", num: true, value: (r) => r.tokens.input + r.tokens.output, cell: (r) => (r.tokens.input + r.tokens.output).toLocaleString("en") },
            { label: "Cost", num: true, value: (r) => r.cost_usd ?? -1, cell: (r) => (r.cost_usd === null ? "–" : `$${fmt(r.cost_usd, 2)}`) },
            { label: "Requests / solve", num: true, value: (r) => r.vendor_requests_per_solve ?? Infinity, cell: (r) => fmt(r.vendor_requests_per_solve) },
            { label: "Flagged", num: true, value: (r) => r.flagged, cell: (r) => r.flagged },
          ],
          rows,
          `${data.manifest.counts.attempts} attempts over ${data.manifest.tasks.length} tasks; lanes are never pooled`,
        ),
      );
      if (window.Chart) {
        const labels = rows.map((r) => `${r.model} · ${r.lane}`);
        const cfg = {
          labels,
          datasets: [
            {
              type: "bar",
              label: "95% CI",
              data: rows.map((r) => [r.score_ci.low, r.score_ci.high]),
              backgroundColor: "rgba(11,87,208,.25)",
              borderColor: "#0b57d0",
              borderWidth: 1,
              barPercentage: 0.35,
            },
            { type: "scatter", label: "mean score", data: rows.map((r, i) => ({ x: labels[i], y: r.shown })), backgroundColor: "#1a1a1a", pointRadius: 5 },
          ],
        };
        if (chart) {
          chart.data = cfg;
          chart.update();
        } else
          chart = new Chart(chartCanvas, { data: cfg, options: { animation: false, maintainAspectRatio: false, scales: { y: { min: 0, max: 100, title: { display: true, text: "task score" } } } } });
      }
    }
    const heatRows = data.matrix.rows.map((r) => `${r.model} · ${r.lane}`);
    const filtersEl = h(
      "div",
      { class: "filters", role: "group", "aria-label": "Filters" },
      select(
        "surface",
        "Surface",
        metas.flatMap((t) => t.surfaces),
      ),
      select(
        "kind",
        "Kind",
        metas.map((t) => t.kind),
      ),
      select(
        "docs",
        "Docs profile",
        metas.map((t) => t.docs_profile),
      ),
    );
    main.append(
      filtersEl,
      section("Ranking", tableHost),
      section("Scores with 95% intervals", h("div", { class: "chart" }, chartCanvas)),
      section(
        "Model × task",
        h("div", { class: "chart heat" }, heatCanvas),
        h(
          "p",
          { class: "muted" },
          "Tasks: ",
          data.matrix.tasks.map((t, i) => [i ? ", " : "", h("a", { href: `${root}/tasks/${t}.html` }, t)]),
        ),
      ),
      section(
        "Suite",
        h(
          "ul",
          {},
          h("li", {}, `Mean flip rate across trials: ${pct(data.suite.mean_flip_rate)}`),
          h("li", {}, `Tasks nobody solves: ${data.suite.tasks_nobody_solves.join(", ") || "none"}`),
          h("li", {}, `Tasks everybody solves: ${data.suite.tasks_everybody_solves.join(", ") || "none"}`),
        ),
      ),
    );
    render();
    if (window.Chart) {
      const cells = data.matrix.rows.flatMap((r, y) => data.matrix.tasks.map((t) => ({ x: t, y: heatRows[y], v: r.cells[t] ? r.cells[t].score : null })));
      new Chart(heatCanvas, {
        type: "matrix",
        data: {
          datasets: [
            {
              label: "score",
              data: cells,
              backgroundColor: (c) => {
                const v = c.raw?.v;
                return v === null || v === undefined ? "#eee" : `hsl(${(v / 100) * 120}, 60%, ${85 - v * 0.35}%)`;
              },
              borderColor: "#fff",
              borderWidth: 1,
              width: (c) => (c.chart.chartArea || {}).width / data.matrix.tasks.length - 2,
              height: (c) => (c.chart.chartArea || {}).height / heatRows.length - 2,
            },
          ],
        },
        options: {
          animation: false,
          maintainAspectRatio: false,
          plugins: { legend: { display: false }, tooltip: { callbacks: { label: (c) => `${c.raw.y} on ${c.raw.x}: ${fmt(c.raw.v)}` } } },
          scales: { x: { type: "category", labels: data.matrix.tasks, offset: true, grid: { display: false } }, y: { type: "category", labels: heatRows, offset: true, grid: { display: false } } },
        },
      });
    }
  }

  function taskPage() {
    main.append(
      h(
        "p",
        { class: "muted" },
        `${data.kind} · ${data.surfaces.join(", ")} · docs: ${data.docs_profile} · ${data.primary_mechanic} · solve rate ${pct(data.solve_rate)} over ${data.attempts} attempts`,
      ),
      section(
        "Results",
        sortableTable(
          [
            { label: "Model", value: (r) => r.model, cell: (r) => r.model },
            { label: "Lane", value: (r) => r.lane, cell: (r) => r.lane },
            { label: "Mean score", num: true, value: (r) => r.mean_score, cell: (r) => fmt(r.mean_score) },
            { label: "Solved", num: true, value: (r) => r.solved, cell: (r) => `${r.solved}/${r.trials}` },
            {
              label: "Attempts",
              value: (r) => r.id,
              cell: (r) => r.attempts.map((a, i) => [i ? " " : "", h("a", { href: `${root}/attempts/${slug(r.model)}/${data.task}/${slug(a.attempt)}.html` }, `t${a.trial}: ${fmt(a.score, 0)}`)]),
            },
          ],
          data.results,
          "one row per model and lane",
        ),
      ),
      section(
        "Checks",
        sortableTable(
          [
            { label: "Check", value: (c) => c.name, cell: (c) => [c.name, c.mandatory ? h("span", { class: "tag" }, "mandatory") : null] },
            { label: "Level", value: (c) => c.level, cell: (c) => c.level },
            { label: "Basis", value: (c) => basisText(c.basis), cell: (c) => basisCell(c.basis) },
            { label: "Passes", num: true, value: (c) => c.pass_rate ?? -1, cell: (c) => pct(c.pass_rate) },
            { label: "Among solvers", num: true, value: (c) => c.pass_rate_solvers ?? -1, cell: (c) => pct(c.pass_rate_solvers) },
            { label: "Among the rest", num: true, value: (c) => c.pass_rate_others ?? -1, cell: (c) => pct(c.pass_rate_others) },
            { label: "Separates", num: true, value: (c) => c.separation ?? -2, cell: (c) => fmt(c.separation, 2) },
            ...(data.mutants ? [{ label: "Mutants it kills", num: true, value: (c) => (c.mutants_killed || []).length, cell: (c) => (c.mutants_killed || []).join(", ") || "none" }] : []),
          ],
          data.checks,
          "how often each of gold's checks passes, and the ticket sentence or vendor behaviour it enforces",
        ),
      ),
      ...(data.mutants
        ? [
            section(
              "Mutants",
              sortableTable(
                [
                  { label: "Mutant", value: (m) => m.id, cell: (m) => [m.id, m.shared ? h("span", { class: "tag" }, "shared") : null] },
                  { label: "Mistake", value: (m) => m.mistake, cell: (m) => m.mistake },
                  { label: "Outcome", value: (m) => m.status, cell: (m) => m.status },
                  { label: "Score", num: true, value: (m) => m.score ?? -1, cell: (m) => fmt(m.score, 0) },
                  {
                    label: "Caught by",
                    value: (m) => m.killed_by.length,
                    cell: (m) => (m.status === "killed" ? m.killed_by.join(", ") : m.status === "lowered" ? m.lowered_by.join(", ") : m.note || ""),
                  },
                ],
                data.mutants,
                "gold with one realistic mistake each, graded like a submission: which mandatory check zeroed it, which soft check lowered it, which survived",
              ),
              data.mutant_collateral_only.length
                ? h("p", { class: "muted" }, `Mandatory checks no mistake aimed at them has failed (only the broken requests of a leaked credential): ${data.mutant_collateral_only.join(", ")}`)
                : null,
            ),
          ]
        : []),
      section("Ticket", h("pre", {}, data.ticket)),
    );
  }

  function modelPage() {
    main.append(
      section(
        "Lanes",
        sortableTable(
          [
            { label: "Lane", value: (r) => r.lane, cell: (r) => r.lane },
            { label: "Rank", num: true, value: (r) => r.rank, cell: (r) => r.rank },
            { label: "Score", num: true, value: (r) => r.mean_score, cell: (r) => `${fmt(r.mean_score)} (${fmt(r.score_ci.low)}–${fmt(r.score_ci.high)})` },
            { label: "Solve rate", num: true, value: (r) => r.solve_rate, cell: (r) => pct(r.solve_rate) },
          ],
          data.rows,
          "",
        ),
      ),
      section(
        "Paired comparisons",
        sortableTable(
          [
            { label: "This", value: (c) => c.a, cell: (c) => c.a },
            { label: "Against", value: (c) => c.b, cell: (c) => c.b },
            { label: "Tasks", num: true, value: (c) => c.tasks, cell: (c) => c.tasks },
            { label: "Mean difference", num: true, value: (c) => c.mean_diff, cell: (c) => `${fmt(c.mean_diff)} (${fmt(c.diff_ci.low)}–${fmt(c.diff_ci.high)})` },
            { label: "P(order reversed)", num: true, value: (c) => c.p_order_reversed, cell: (c) => fmt(c.p_order_reversed, 3) },
          ],
          data.comparisons,
          "paired bootstrap over the tasks both attempted",
        ),
      ),
    );
  }

  function attemptPage() {
    const s = data.summary;
    const events = data.trajectory ? data.trajectory.events : [];
    const dev = data.requests?.development?.roles || {};
    const byEvent = new Map();
    for (const [role, rows] of Object.entries(dev)) for (const r of rows) if (r.event !== null) byEvent.set(r.event, [...(byEvent.get(r.event) || []), { role, ...r }]);
    const grading = data.requests?.grading?.roles || {};
    const gradingRows = Object.entries(grading).flatMap(([role, epochs]) => Object.entries(epochs).flatMap(([epoch, rows]) => rows.map((r) => ({ role, epoch, ...r }))));
    const reqTable = (rows, idPrefix) =>
      h(
        "table",
        { class: "requests" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["#", "role", "method", "path", "status", "tags"].map((x) => h("th", { scope: "col" }, x)),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((r) =>
            h(
              "tr",
              { id: idPrefix ? `${idPrefix}-${r.role}-${r.epoch}-${r.seq}` : null },
              h("td", {}, r.seq),
              h("td", {}, r.role),
              h("td", {}, r.method),
              h("td", {}, r.path + (Object.keys(r.query || {}).length ? `?${new URLSearchParams(r.query)}` : "")),
              h("td", { class: r.status >= 400 ? "bad" : null }, r.status),
              h(
                "td",
                {},
                (r.faults || []).map((f) => h("span", { class: "tag fault" }, f)),
                (r.lies || []).map((l) => h("span", { class: "tag lie" }, l)),
              ),
            ),
          ),
        ),
      );
    const failed = data.verdict ? ["l1", "l2", "l3"].flatMap((l) => data.verdict.checks[l]).filter((c) => !c.ok) : [];
    const checkRow = (c) => {
      const seqs = [...String(c.detail).matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
      const links = gradingRows.filter((r) => seqs.includes(r.seq)).map((r) => h("a", { href: `#req-${r.role}-${r.epoch}-${r.seq}` }, `request #${r.seq}`));
      return h("li", {}, h("strong", { class: c.ok ? "ok" : "bad" }, c.ok ? "pass " : "FAIL "), `${c.level} ${c.name}${c.mandatory ? " (mandatory)" : ""}: ${c.detail} `, links);
    };
    main.append(
      h(
        "p",
        {},
        `${s.task} · ${s.lane} · ${s.model} · trial ${s.trial} · `,
        h("strong", {}, s.flag ? `0 (${s.flag})` : `score ${fmt(s.score)}`),
        ` · ${s.solved ? "solved" : "not solved"} · stop: ${s.stop_reason} · ${s.failure_class}`,
      ),
      // A graded prediction (wirebench grade-all): the agent ran elsewhere; a refused patch says why.
      ...(s.harness === "external" ? [h("p", { class: "muted" }, "a submitted patch, graded here; the agent ran in a harness of its own (harness: external)")] : []),
      ...(s.error ? [h("p", { class: "bad" }, s.error)] : []),
      h(
        "p",
        { class: "muted" },
        `agent ${fmt(s.timing.agent_s)} s · grading ${fmt(s.timing.grading_s)} s · tokens in ${s.usage.input_tokens.toLocaleString("en")} out ${s.usage.output_tokens.toLocaleString("en")} · `,
        h("a", { href: `${root}/${data.data}/` }, "files"),
      ),
      section(
        "Verdict",
        data.verdict
          ? h(
              "div",
              {},
              h("p", {}, `${failed.length} failed check(s)`),
              h(
                "ul",
                {},
                ["l1", "l2", "l3"]
                  .flatMap((l) => data.verdict.checks[l])
                  .sort((a, b) => a.ok - b.ok)
                  .map(checkRow),
              ),
            )
          : h("p", {}, "not graded"),
      ),
      section(
        `Trajectory (${events.length} events)`,
        h(
          "ol",
          { class: "events", start: 0 },
          events.map((e) => {
            const reqs = byEvent.get(e.i) || [];
            const body =
              e.kind === "tool_call"
                ? [
                    h(
                      "details",
                      {},
                      h("summary", {}, `${e.tool} ${e.result ? (e.result.ok ? "ok" : "failed") : "no result"}${reqs.length ? ` · ${reqs.length} vendor request(s)` : ""}`),
                      h("pre", {}, JSON.stringify(e.input, null, 2)),
                      e.result ? h("pre", {}, e.result.output) : null,
                    ),
                    reqs.length ? h("details", {}, h("summary", {}, `vendor requests made during this call (${reqs.length})`), reqTable(reqs, null)) : null,
                  ]
                : e.kind === "system"
                  ? [`model ${e.model}; tools: ${e.tools.join(", ")}`]
                  : [h("pre", {}, e.text)];
            return h("li", { id: `e${e.i}`, class: `event ${e.kind}` }, h("div", { class: "meta" }, h("a", { href: `#e${e.i}` }, `#e${e.i}`), ` ${e.kind} · ${fmt(e.t)} s`), body);
          }),
        ),
      ),
      section("Grading requests", gradingRows.length ? reqTable(gradingRows, "req") : h("p", {}, "none")),
    );
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }

  ({ leaderboard: leaderboardPage, task: taskPage, model: modelPage, attempt: attemptPage })[document.body.dataset.page]();
  done();
})();
