// Entry of the bundle (/widget/audio-merge.js): mount where #audio-merge-tool exists and
// enhance the upload form where there is one, and name the merged results' players and links.
// A page with none of them gets nothing.
import { WIDGET_ELEMENT_ID } from '../shared/types.js';
import { mount, remount, setUploading } from './mount.js';
import { enhanceResults } from './components/results.js';
import { enableChapterSeek } from './components/result-labels.js';
import { injectStyles } from './components/styles.js';
import { UPLOAD_FORM_ID, enhanceUploadForm } from './components/upload-area.js';

export { mount, remount, unmount, readConfig } from './mount.js';

function boot(): void {
  const tool = document.getElementById(WIDGET_ELEMENT_ID);
  const form = document.getElementById(UPLOAD_FORM_ID);
  if (tool || form) injectStyles();
  if (tool) mount(tool);
  if (form instanceof HTMLFormElement)
    enhanceUploadForm(form, { onAllDone: remount, onBusyChange: setUploading });
  enhanceResults(document);
  enableChapterSeek(document);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot, { once: true });
else boot();
