/**
 * @module exports/doc-model
 * What the documentation says about a vendor's exports. Built from the
 * declaration with the truthful field docs and kept apart from the resources,
 * so no lie told about a resource changes the exports' column reference.
 */

/** One documented column of an exported file. */
export interface DocExportColumn {
  /** Header the column is written under. */
  header: string;
  /** Record field it holds. */
  field: string;
  /** The field's documented type. */
  type: string;
  description: string;
  /** Whether the field may be null (an empty value in the file). */
  nullable: boolean;
  /** How the column is written when not as the API writes the field: its pattern and how it reads. */
  written?: { pattern: string; describe: string };
}

/** One documented export. */
export interface DocExport {
  /** Name the request body sends. */
  name: string;
  /** Entity of the rows. */
  entity: string;
  /** Plural of the entity, for links to its page. */
  plural: string;
  /** Whether the request may carry the incremental filter. */
  incremental: boolean;
  columns: DocExportColumn[];
}

/** What the documentation says about a vendor's exports. */
export interface DocExports {
  /** The declaration, for its style to describe the flow. */
  declaration: { style: string } & Record<string, unknown>;
  /** The body field carrying the incremental filter and what it does, when some export takes it. */
  since: { name: string; description: string } | null;
  /** JSON Schema of a timestamp in the vendor's format. */
  timeSchema: Record<string, unknown>;
  exports: DocExport[];
}
