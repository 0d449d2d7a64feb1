import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReplicaSet } from '../db/replicas';
import type { ReadRoute } from './replica-reads';

/**
 * The read replicas on /metrics: each one's lag and health at its last check, and where the reads
 * that may be stale went (a replica, or the primary and why). Answers the counter's recorder.
 */
export function replicaMetrics(registry: Registry, replicas: ReplicaSet) {
  new Gauge({
    name: 'kamai_db_replica_lag_seconds',
    help: 'How far each read replica was behind the primary at its last check (an upper bound; absent while unknown)',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const r of replicas.status()) if (r.lagMs !== undefined) this.set({ replica: r.name }, r.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'kamai_db_replica_up',
    help: '1 when the read replica answered its last check as a standby, 0 when not',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const r of replicas.status()) this.set({ replica: r.name }, r.healthy ? 1 : 0);
    },
  });
  const reads = new Counter({
    name: 'kamai_db_reads_total',
    help: 'Reads that may be stale, by where they ran: a replica, or the primary (no replica caught up, the reader wrote recently, the replica failed)',
    labelNames: ['target', 'replica', 'reason'] as const,
    registers: [registry],
  });
  return (route: ReadRoute) =>
    route.target === 'replica'
      ? reads.inc({ target: 'replica', replica: route.replica, reason: '' })
      : reads.inc({ target: 'primary', replica: '', reason: route.reason });
}
