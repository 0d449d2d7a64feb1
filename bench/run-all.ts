import { coldStart } from './cold-start';

/** Runs every benchmark and prints one line each: figure, baseline, ratio, PASS/FAIL against the target. */
async function main() {
  const smoke = process.argv.includes('--smoke');
  const rows = await coldStart(smoke ? 1 : 3);
  for (const row of rows) {
    const verdict = row.figure <= row.target ? 'PASS' : 'FAIL';
    console.log(
      `${row.name}: ${row.figure.toFixed(0)} ms | baseline (bare node:http start) ${row.baseline.toFixed(0)} ms | ratio ${(row.figure / row.baseline).toFixed(1)}x | target ≤ ${row.target} ms ${verdict}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
