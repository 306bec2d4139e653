import type { DocModel } from "./model.ts";
import { authenticationPage } from "./markdown/authentication-page.ts";
import { changelogPage } from "./markdown/changelog-page.ts";
import { errorsPage } from "./markdown/errors-page.ts";
import { exportsPage } from "./markdown/exports-page.ts";
import { indexPage } from "./markdown/index-page.ts";
import { paginationPage } from "./markdown/pagination-page.ts";
import { rateLimitsPage } from "./markdown/rate-limits-page.ts";
import { resourcePage } from "./markdown/resource-page.ts";
import { syncingPage } from "./markdown/syncing-page.ts";
import { webhooksPage } from "./markdown/webhooks-page.ts";
import { gatewayPage, gatewaySlug } from "./markdown/gateway-page.ts";

/** One page of a documentation set. */
export interface DocPage {
  /** File name without extension (`authentication`, `resource-candidates`). */
  slug: string;
  title: string;
  markdown: string;
}

/** The Markdown pages of a model, in navigation order. Every page ends with the release canary. */
export function renderPages(m: DocModel): DocPage[] {
  const sparse = m.profile === "sparse";
  const plan: { slug: string; title: string; render: () => string }[] = [{ slug: "authentication", title: "Authentication", render: () => authenticationPage(m) }];
  if (!sparse) {
    plan.push({ slug: "pagination", title: "Pagination", render: () => paginationPage(m) });
    plan.push({ slug: "syncing", title: "Incremental sync and deletes", render: () => syncingPage(m) });
    if (m.rateLimit) plan.push({ slug: "rate-limits", title: "Rate limits", render: () => rateLimitsPage(m) });
    plan.push({ slug: "errors", title: "Errors", render: () => errorsPage(m) });
    if (m.webhooks) plan.push({ slug: "webhooks", title: "Webhooks", render: () => webhooksPage(m) });
  }
  for (const g of m.gateways) plan.push({ slug: gatewaySlug(g), title: g.service, render: () => gatewayPage(m, g) });
  if (m.exports) plan.push({ slug: "exports", title: "Exports", render: () => exportsPage(m) });
  for (const r of m.resources)
    plan.push({ slug: `resource-${r.plural.replace(/_/g, "-")}`, title: r.plural[0].toUpperCase() + r.plural.slice(1).replace(/_/g, " "), render: () => resourcePage(m, r) });
  plan.push({ slug: "changelog", title: "Changelog", render: () => changelogPage(m) });
  const nav = [{ slug: "index", title: "Overview" }, ...plan.map(({ slug, title }) => ({ slug, title }))];
  const footer = `\n---\n\n${m.vendor.name} API documentation · ${m.canary}\n`;
  return [{ slug: "index", title: "Overview", markdown: indexPage(m, nav) + footer }, ...plan.map((p) => ({ slug: p.slug, title: p.title, markdown: p.render() + footer }))];
}
