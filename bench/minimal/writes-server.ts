import { serve } from './policy';
import { competitorPool, writeCompetitor } from './writes';

/**
 * The write yardstick as a process (bench/minimal/writes.ts):
 *
 *   DATABASE_URL=postgres://… PORT=3002 node --import tsx bench/minimal/writes-server.ts
 */
const pool = competitorPool(process.env.DATABASE_URL);
serve(writeCompetitor(pool), () => pool.end());
