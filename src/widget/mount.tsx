// Mounting the widget into the host element: a wrapper of our own holds the React root, and the
// headless store lives as long as the mount, so the upload area can tell it what happens.
import { createRoot, type Root } from 'react-dom/client';
import { AudioMergeTool, type WidgetConfig } from './components/AudioMergeTool.js';
import type { ListenHandler } from './components/RowPlayer.js';
import { injectStyles } from './components/styles.js';
import { languageAttributes } from './i18n/locale.js';
import { createWidgetStore, type WidgetStore, type WidgetStoreDeps } from './store/widget-store.js';
import { parseFormats } from '../shared/output-formats.js';

export const WRAPPER_CLASS = 'audio-merge-root';

export interface MountOptions {
  onListen?: ListenHandler;
  listenInterval?: number;
  storeDeps?: WidgetStoreDeps;
}

let mounted: { root: Root; wrapper: HTMLElement; store: WidgetStore } | null = null;

/** The host element's data attributes (docs/reference/widget.md). */
export function readConfig(el: HTMLElement): WidgetConfig {
  const d = el.dataset;
  return {
    appid: d.appid ?? '',
    sid: d.sid ?? '',
    port: d.port ?? '6001',
    makeLabel: d.makeLabel ?? 'Make MP3',
    title: d.title ?? '',
    formats: parseFormats(d.formats),
    sound: d.sound === 'on',
  };
}

/** Render the widget into a fresh wrapper inside `element`; an earlier mount is removed first. */
export function mount(element: HTMLElement, options: MountOptions = {}): WidgetStore {
  unmount();
  injectStyles(element.ownerDocument);
  const wrapper = element.ownerDocument.createElement('div');
  wrapper.className = WRAPPER_CLASS;
  // The widget's own language and direction, whatever the page around it is in.
  const { lang, dir } = languageAttributes();
  wrapper.lang = lang;
  wrapper.dir = dir;
  element.appendChild(wrapper);
  const root = createRoot(wrapper);
  const config = readConfig(element);
  const store = createWidgetStore(config, options.storeDeps);
  mounted = { root, wrapper, store };
  root.render(
    <AudioMergeTool
      {...config}
      onListen={options.onListen}
      listenInterval={options.listenInterval}
      store={store}
      keepChoices
    />,
  );
  return store;
}

export function unmount(): void {
  if (!mounted) return;
  mounted.root.unmount();
  mounted.wrapper.remove();
  mounted = null;
}

/** True while the progress view is up: the list is frozen then. */
export function isMerging(): boolean {
  return mounted?.store.getState().showSpinner ?? false;
}

/**
 * Load the items again where the widget is, so items uploaded since appear. The order the person
 * has already chosen survives (new items join the end).
 */
export function remount(): void {
  if (!mounted || isMerging()) return;
  void mounted.store.actions.load();
}

/** The upload area is sending files (true) or has finished (false). */
export function setUploading(busy: boolean): void {
  mounted?.store.actions.setUploading(busy);
}
