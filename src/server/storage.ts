// Where files live under DATA_DIR. Paths are built only from ids and names the server made.
// STUB: the server-core engineer fills this in; the interface is fixed.
import type { ItemRow, ResultRow } from './store.js';

export interface Storage {
  root: string;
  /** DATA_DIR/tmp: uploads in flight and merges in progress. */
  tmpDir: string;
  uploadPath(item: Pick<ItemRow, 'sid' | 'newfilename' | 'format'>): string;
  resultsDir(sid: string): string;
  resultPath(result: Pick<ResultRow, 'sid' | 'file'>): string;
}
