// Prints vitest's JSON result as the plain closing line 'label: N passed, N failed'.
import { readFileSync } from 'node:fs';

const [file, label = 'tests'] = process.argv.slice(2);
const r = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(
  `${label}: ${r.numPassedTests} passed, ${r.numFailedTests} failed` +
    (skipped ? `, ${skipped} skipped` : ''),
);
if (r.numTotalTests === 0) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(r.numFailedTests > 0 ? 1 : 0);
