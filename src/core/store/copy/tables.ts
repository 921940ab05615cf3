// What a copy between the engines moves, read from the migrated SQLite schema (the twin PostgreSQL
// schema has the same tables and columns: pg/schema-parity.test.ts): every table with its columns,
// their kind, the primary key that orders rows for the checksums, in an order where a row's parents
// are copied before it.
import type { Db } from '../open';

export type ColumnKind = 'integer' | 'real' | 'text' | 'blob';

export interface TableSpec {
  name: string;
  columns: { name: string; kind: ColumnKind }[];
  /** The primary key's columns; all columns for a table without one (rows ordered by everything). */
  orderBy: string[];
}

/** SQLite's affinity rules, reduced to what the two engines share. */
export function columnKind(declared: string): ColumnKind {
  const type = declared.toUpperCase();
  if (type.includes('INT')) return 'integer';
  if (type.includes('BLOB') || type === '') return 'blob';
  if (/REAL|FLOA|DOUB/.test(type)) return 'real';
  return 'text';
}

interface ColumnInfo {
  name: string;
  type: string;
  pk: number;
}

export function copyPlan(db: Db): TableSpec[] {
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all() as string[];
  const specs = new Map<string, TableSpec & { parents: Set<string> }>();
  for (const name of names) {
    const columns = db.prepare(`SELECT name, type, pk FROM pragma_table_info(?)`).all(name) as ColumnInfo[];
    const key = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const parents = new Set(
      (db.prepare(`SELECT "table" FROM pragma_foreign_key_list(?)`).pluck().all(name) as string[]).filter(
        (parent) => parent !== name,
      ),
    );
    specs.set(name, {
      name,
      columns: columns.map((c) => ({ name: c.name, kind: columnKind(c.type) })),
      orderBy: (key.length > 0 ? key : columns).map((c) => c.name),
      parents,
    });
  }
  // Parents first (Kahn's order, by name among equals). Tables written by triggers (rollups,
  // maintained counts) need no place of their own: the target's triggers are off during a copy.
  const ordered: TableSpec[] = [];
  const placed = new Set<string>();
  const pending = [...specs.values()];
  while (pending.length > 0) {
    const index = pending.findIndex((spec) => [...spec.parents].every((p) => placed.has(p) || !specs.has(p)));
    if (index < 0)
      throw new Error(`foreign keys form a cycle among ${pending.map((s) => s.name).join(', ')}`);
    const [spec] = pending.splice(index, 1);
    if (!spec) break;
    const { parents: _parents, ...table } = spec;
    ordered.push(table);
    placed.add(table.name);
  }
  return ordered;
}
