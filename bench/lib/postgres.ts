import pg from 'pg';

/** The PostgreSQL server of this machine (README); the benchmarks make and drop their own database. */
export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new empty database for one benchmark run on `server`, or undefined when no server answers. */
export async function freshDatabase(label: string, server = POSTGRES_URL): Promise<FreshDatabase | undefined> {
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `kamai_bench_${label}_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
