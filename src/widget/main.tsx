// Entry of the bundle (/widget/audio-merge.js): mount where #audio-merge-tool exists and
// enhance the upload form where there is one, and name the merged results' players and links.
// A page with none of them gets nothing.
import { WIDGET_ELEMENT_ID } from '../shared/types.js';
import { mount, remount, setUploading } from './mount.js';
import { enhanceResults } from './components/results.js';
import { enableChapterSeek } from './components/result-labels.js';
import { injectStyles } from './components/styles.js';
import { setUpLocale } from './i18n/locale.js';
import { UPLOAD_FORM_ID, enhanceUploadForm } from './components/upload-area.js';

export { mount, remount, unmount, readConfig } from './mount.js';
export { setUpLocale } from './i18n/locale.js';

async function boot(): Promise<void> {
  const tool = document.getElementById(WIDGET_ELEMENT_ID);
  const form = document.getElementById(UPLOAD_FORM_ID);
  if (tool || form) injectStyles();
  // The widget element's language (data-locale), else the page's; the upload area and the
  // results speak it too.
  await setUpLocale(tool);
  if (tool) mount(tool);
  if (form instanceof HTMLFormElement)
    enhanceUploadForm(form, { onAllDone: remount, onBusyChange: setUploading });
  enhanceResults(document);
  enableChapterSeek(document);
}

const start = () => void boot();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
