// The store boundary's contract, held on both engines: placeholders, exact integers, transactions
// (commit, rollback, savepoints) that no other caller sees half of, and one unique-violation test.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES } from '../../test-support/engines';
import { numberedPlaceholders } from './pg/sql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from './open';
import {
  jsonEach,
  jsonText,
  jsonTuples,
  jsonValues,
  jsonValuesOf,
  least,
  orEmpty,
  unindexed,
} from './dialect';
import { isUniqueViolation, sqliteSql, type Sql } from './sql';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

async function table(sql: Sql): Promise<void> {
  await sql.run(`CREATE TABLE ledger (id TEXT PRIMARY KEY, micros BIGINT NOT NULL, note TEXT)`);
}
const count = async (sql: Sql): Promise<number> =>
  (await sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ledger`))?.n ?? -1;

describe.each(ENGINES)('the store boundary on %s', (engine) => {
  it('binds placeholders in order, leaves quoted question marks alone, and returns exact integers', async () => {
    const { sql, close } = await engines.open(engine);
    await table(sql);
    const big = 9_007_199_254_740_991; // 2^53 - 1: the largest exact micros amount
    await sql.run(`INSERT INTO ledger (id, micros, note) VALUES (?, ?, '?')`, ['a', big]);
    await sql.run(`INSERT INTO ledger (id, micros, note) VALUES (?, ?, ?)`, ['b', true, 'yes']);
    const rows = await sql.all<{ id: string; micros: number; note: string }>(
      `SELECT id, micros, note FROM ledger WHERE micros >= ? ORDER BY id`,
      [1],
    );
    expect(rows).toEqual([
      { id: 'a', micros: big, note: '?' },
      { id: 'b', micros: 1, note: 'yes' },
    ]);
    // The same rows as arrays, columns in select order, exact integers kept; the object form unchanged after.
    expect(
      await sql.values<[string, number]>(`SELECT id, micros FROM ledger WHERE micros >= ? ORDER BY id`, [1]),
    ).toEqual([
      ['a', big],
      ['b', 1],
    ]);
    expect(await sql.get(`SELECT id, micros FROM ledger WHERE id = ?`, ['b'])).toEqual({
      id: 'b',
      micros: 1,
    });
    expect(await sql.get(`SELECT id FROM ledger WHERE id = ?`, ['none'])).toBeUndefined();
    expect((await sql.run(`DELETE FROM ledger WHERE id = ?`, ['b'])).changes).toBe(1);
    await close();
  });

  it('commits a transaction whole, rolls a failed one back, and keeps the outer work when a savepoint fails', async () => {
    const { sql, close } = await engines.open(engine);
    await table(sql);
    await sql.transaction(async (tx) => {
      await tx.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, ['kept', 1]);
      await expect(
        tx.transaction(async (inner) => {
          await inner.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, ['undone', 2]);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
    });
    await expect(
      sql.transaction(async (tx) => {
        await tx.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, ['lost', 3]);
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    const ids = await sql.all<{ id: string }>(`SELECT id FROM ledger ORDER BY id`);
    expect(ids.map((r) => r.id)).toEqual(['kept']);
    await close();
  });

  it('never lets another caller see half of a transaction that awaits between its writes', async () => {
    const { sql, close } = await engines.open(engine);
    await table(sql);
    const seen: number[] = [];
    const writing = sql.transaction(async (tx) => {
      await tx.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, ['first', 1]);
      await new Promise((r) => setTimeout(r, 30));
      await tx.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, ['second', 2]);
    });
    const reading = (async () => {
      for (let i = 0; i < 5; i++) {
        seen.push(await count(sql));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await Promise.all([writing, reading]);
    expect(seen.every((n) => n === 0 || n === 2)).toBe(true);
    expect(await count(sql)).toBe(2);
    await close();
  });

  it('holds a lock to the end of its transaction, so two check-then-writes never both write', async () => {
    const { sql, close } = await engines.open(engine);
    await table(sql);
    const claim = (id: string) =>
      sql.transaction(async (tx) => {
        await tx.lock('ledger:only-one');
        const n = await count(tx);
        await new Promise((r) => setTimeout(r, 20));
        if (n === 0) await tx.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, [id, 1]);
      });
    await Promise.all([claim('one'), claim('two'), claim('three')]);
    expect(await count(sql)).toBe(1);
    await close();
  });

  it('sums money exactly and reads JSON lists, tuples and fields the same way (dialect.ts)', async () => {
    const { sql, close } = await engines.open(engine);
    await table(sql);
    await sql.run(`INSERT INTO ledger (id, micros, note) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)`, [
      'a',
      4_503_599_627_370_496,
      '{"kind":"x"}',
      'b',
      3,
      '{"kind":"y"}',
      'c',
      2,
      null,
    ]);
    const totals = await sql.get<{ total: number; mean: number }>(
      `SELECT SUM(micros) AS total, AVG(micros) AS mean FROM ledger WHERE id IN ${jsonValues(sql)}`,
      [JSON.stringify(['b', 'c'])],
    );
    expect(totals).toEqual({ total: 5, mean: 2.5 });
    const exact = await sql.get<{ total: number }>(`SELECT SUM(micros) AS total FROM ledger`);
    expect(exact?.total).toBe(4_503_599_627_370_501);
    const tuples = await sql.all<{ id: string; n: number; r: number }>(
      `WITH t(id, n, r) AS (${jsonTuples(sql, ['text', 'integer', 'real'])}) SELECT id, n, r FROM t ORDER BY id`,
      [
        JSON.stringify([
          ['z', 7, 0.5],
          ['y', -2, 1.25],
        ]),
      ],
    );
    expect(tuples).toEqual([
      { id: 'y', n: -2, r: 1.25 },
      { id: 'z', n: 7, r: 0.5 },
    ]);
    const kinds = await sql.all<{ kind: string | null }>(
      `SELECT ${jsonText(sql, 'note', 'kind')} AS kind FROM ledger ORDER BY id`,
    );
    expect(kinds.map((k) => k.kind)).toEqual(['x', 'y', null]);
    const each = await sql.all<{ value: string; micros: number | null }>(
      `SELECT value, (SELECT micros FROM ledger WHERE id = value) AS micros FROM ${jsonEach(sql)} ORDER BY value`,
      [JSON.stringify(['c', 'b', 'q'])],
    );
    expect(each).toEqual([
      { value: 'b', micros: 3 },
      { value: 'c', micros: 2 },
      { value: 'q', micros: null },
    ]);
    const smaller = await sql.all<{ m: string }>(
      `SELECT ${least(sql, 'id', "'b'")} AS m FROM ledger ORDER BY id`,
    );
    expect(smaller.map((r) => r.m)).toEqual(['a', 'b', 'b']);
    const plain = await sql.all<{ id: string; note: string }>(
      `SELECT id, ${orEmpty(sql, 'note')} AS note FROM ledger WHERE ${unindexed(sql, 'id')} <> ? ORDER BY id`,
      ['a'],
    );
    expect(plain).toEqual([
      { id: 'b', note: '{"kind":"y"}' },
      { id: 'c', note: '' },
    ]);
    await sql.run(
      `UPDATE ledger SET note = CASE id WHEN 'a' THEN '["x"]' ELSE '["b","q"]' END WHERE id <> 'c'`,
    );
    const holding = await sql.all<{ id: string }>(
      `SELECT id FROM ledger WHERE ? IN ${jsonValuesOf(sql, 'note')} ORDER BY id`,
      ['q'],
    );
    expect(holding).toEqual([{ id: 'b' }]);
    await close();
  });

  it('reads rows as objects: a repeated name keeps its last value, odd names are plain keys, no row is undefined', async () => {
    const { sql, close } = await engines.open(engine);
    await table(sql);
    await sql.run(`INSERT INTO ledger (id, micros, note) VALUES ('a', 1, 'x'), ('b', 2, NULL)`);
    expect(
      await sql.all(
        `SELECT id, micros AS id, note AS "it's ""odd""", 1 AS constructor FROM ledger ORDER BY micros`,
      ),
    ).toEqual([
      { id: 1, 'it\'s "odd"': 'x', constructor: 1 },
      { id: 2, 'it\'s "odd"': null, constructor: 1 },
    ]);
    expect(await sql.get(`SELECT id FROM ledger WHERE id = 'none'`)).toBeUndefined();
    expect(await sql.all(`SELECT id, micros FROM ledger ORDER BY id`)).toEqual([
      { id: 'a', micros: 1 },
      { id: 'b', micros: 2 },
    ]);
    await close();
  });

  it('reports a unique violation the same way on both engines', async () => {
    const { sql, close } = await engines.open(engine);
    await table(sql);
    await sql.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, ['once', 1]);
    const error = await sql.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, ['once', 2]).catch((e) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
    await close();
  });
});

describe('the SQLite adapter', () => {
  it('is one per connection: transactions of callers that each asked for it queue on the same line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adlens-sql-adapter-'));
    const store = openStore(dir);
    try {
      const mine = sqliteSql(store.db);
      const theirs = sqliteSql(store.db);
      expect(theirs).toBe(mine);
      await table(mine);
      const write = (sql: Sql, id: string) =>
        sql.transaction(async (tx) => {
          await tx.run(`INSERT INTO ledger (id, micros) VALUES (?, ?)`, [id, 1]);
          await new Promise((r) => setTimeout(r, 10));
        });
      await Promise.all([write(mine, 'a'), write(theirs, 'b')]);
      expect(await count(mine)).toBe(2);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the same rows as better-sqlite3's own objects: repeated names, odd names, no row, no data", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adlens-sql-rows-'));
    const store = openStore(dir);
    try {
      const sql = sqliteSql(store.db);
      await table(sql);
      await sql.run(`INSERT INTO ledger (id, micros, note) VALUES ('a', 1, 'x'), ('b', 2, NULL)`);
      const queries = [
        `SELECT * FROM ledger ORDER BY id`,
        // A repeated name keeps its last value; quotes, spaces and a prototype's name are plain keys.
        `SELECT id, micros AS id, note AS "it's ""odd"" \\ key", 1 AS constructor, 2 AS toString FROM ledger`,
        `SELECT id AS __proto__, micros FROM ledger`,
        `SELECT id FROM ledger WHERE id = 'none'`,
      ];
      for (const text of queries) {
        const own = store.db.prepare(text);
        expect(await sql.all(text)).toEqual(own.all());
        expect(await sql.get(text)).toEqual(own.get());
      }
      const proto = await sql.get<Record<string, unknown>>(`SELECT id AS __proto__ FROM ledger`);
      expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
      await expect(sql.all(`UPDATE ledger SET note = 'y'`)).rejects.toThrow(/does not return data/);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('placeholder numbering for PostgreSQL', () => {
  it('numbers ? in order outside strings, identifiers and comments', () => {
    expect(numberedPlaceholders(`SELECT "a?" , '?''?' , ? -- why?\n, ?`)).toBe(
      `SELECT "a?" , '?''?' , $1 -- why?\n, $2`,
    );
  });
  it('quotes camelCase aliases so PostgreSQL keeps their case, and nothing else', () => {
    expect(
      numberedPlaceholders(
        `SELECT a.id, a.connection_status AS connectionStatus, 'x AS fooBar' AS note, n AS "keptAs" FROM a`,
      ),
    ).toBe(
      `SELECT a.id, a.connection_status AS "connectionStatus", 'x AS fooBar' AS note, n AS "keptAs" FROM a`,
    );
  });
});
