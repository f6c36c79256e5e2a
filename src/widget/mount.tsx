// Mounting the widget into the host element: a wrapper of our own holds the React root.
import { createRoot, type Root } from 'react-dom/client';
import { AudioMergeTool, type WidgetConfig } from './components/AudioMergeTool.js';
import type { ListenHandler } from './components/RowPlayer.js';
import { injectStyles } from './components/styles.js';

export const WRAPPER_CLASS = 'audio-merge-root';

export interface MountOptions {
  onListen?: ListenHandler;
  listenInterval?: number;
}

let mounted: { root: Root; wrapper: HTMLElement; host: HTMLElement; options: MountOptions; reloads: number } | null = null;

/** The host element's data attributes (docs/api.md section 4). */
export function readConfig(el: HTMLElement): WidgetConfig {
  const d = el.dataset;
  return {
    appid: d.appid ?? '',
    sid: d.sid ?? '',
    port: d.port ?? '6001',
    makeLabel: d.makeLabel ?? 'Make MP3',
    title: d.title ?? '',
  };
}

/** Render the widget into a fresh wrapper inside `element`; an earlier mount is removed first. */
export function mount(element: HTMLElement, options: MountOptions = {}): void {
  unmount();
  injectStyles(element.ownerDocument);
  const wrapper = element.ownerDocument.createElement('div');
  wrapper.className = WRAPPER_CLASS;
  element.appendChild(wrapper);
  const root = createRoot(wrapper);
  mounted = { root, wrapper, host: element, options, reloads: 0 };
  render();
}

function render(): void {
  if (!mounted) return;
  const { root, host, options, reloads } = mounted;
  root.render(<AudioMergeTool {...readConfig(host)} {...options} reloadToken={reloads} />);
}

export function unmount(): void {
  if (!mounted) return;
  mounted.root.unmount();
  mounted.wrapper.remove();
  mounted = null;
}

/** True while the progress view is up: a re-mount then would hide a running merge. */
export function isMerging(): boolean {
  return mounted?.wrapper.querySelector('.audio-merge-progress') != null;
}

/**
 * Load the items again where the widget is, so items uploaded since appear. The same React root
 * is kept, so the order the person has already chosen survives (new items join the end).
 */
export function remount(): void {
  if (!mounted || isMerging()) return;
  mounted.reloads++;
  render();
}
