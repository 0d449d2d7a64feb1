import { appendFileSync } from 'node:fs';
import { errorResponsesOf, type MessageKey, type RouteDef, type RouteName, routes } from '@kamai/contract';

/**
 * The OpenAPI document lists, per route, every error key it can answer (`errorResponsesOf`, from the
 * contract's `ROUTE_ERRORS`). Nothing at run time needs the list, so nothing keeps it true but this:
 * when `KAMAI_ROUTE_ERRORS_LOG` names a file (the server tests' global setup sets it), every answer
 * with a key its route does not document is appended there, and the run fails on any line.
 */
const LOG = process.env.KAMAI_ROUTE_ERRORS_LOG;
const documented = new Map<RouteName, Set<MessageKey>>();

function documentedKeys(name: RouteName): Set<MessageKey> {
  let keys = documented.get(name);
  if (!keys) {
    keys = new Set([...errorResponsesOf(name, routes[name] as RouteDef).values()].flat());
    documented.set(name, keys);
  }
  return keys;
}

export function recordUndocumentedError(name: RouteName | undefined, key: MessageKey): void {
  if (!LOG || !name || documentedKeys(name).has(key)) return;
  appendFileSync(LOG, `${name}\t${key}\n`);
}
