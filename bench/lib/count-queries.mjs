// Preloaded into the server by bench/round-trips.ts (node --import): counts the node-postgres queries
// (one round trip each) made on behalf of HTTP requests, not those of the job runner's timers, and
// writes the count since the last SIGUSR2 to stderr on SIGUSR2 (with the statements when
// COUNT_QUERIES_LOG=1), and the SQL texts drizzle built for those requests (`dialect.sqlToQuery`
// calls: the query building that prepared statements and `builtOnce` save).
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';

const inRequest = new AsyncLocalStorage();
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event !== 'request') return emit.call(this, event, ...args);
  return inRequest.run(true, () => emit.call(this, event, ...args));
};

let seen = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(...args) {
  if (inRequest.getStore()) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? args[0]?.name ?? '?');
    seen.push(String(text).replace(/\s+/g, ' ').slice(0, 90));
  }
  return query.apply(this, args);
};
let builds = 0;
const sqlToQuery = PgDialect.prototype.sqlToQuery;
PgDialect.prototype.sqlToQuery = function built(...args) {
  if (inRequest.getStore()) builds += 1;
  return sqlToQuery.apply(this, args);
};
process.on('SIGUSR2', () => {
  const detail = process.env.COUNT_QUERIES_LOG === '1' ? seen.map((s) => `\n  ${s}`).join('') : '';
  process.stderr.write(`queries=${seen.length} builds=${builds}${detail}\n`);
  seen = [];
  builds = 0;
});
