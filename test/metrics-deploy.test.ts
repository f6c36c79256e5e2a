// The operator's side of the metrics, checked against what the server exports: the Grafana
// dashboard queries only series a process serves and shows every audio-merge one, and the
// Prometheus of compose.yaml scrapes every web and worker process on their METRICS_PORT.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createPrometheusMetrics } from '../src/server/ops/prometheus.js';
import { parsePrometheusText } from './support/prometheus-text.js';

interface Panel {
  title: string;
  targets: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync('deploy/grafana-dashboard.json', 'utf8')) as { panels: Panel[] };
const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));

describe('deploy/grafana-dashboard.json', () => {
  it('queries only series the server serves, and every audio-merge one', async () => {
    const served = parsePrometheusText(await createPrometheusMetrics().text());
    const families = [...served.types.keys()];
    const sampleNames = new Set(served.samples.map((s) => s.name));
    const queried = new Set(
      exprs.flatMap((e) => e.match(/\b(audio_merge|process|nodejs)_[a-z0-9_]+/g) ?? []),
    );
    for (const name of queried)
      expect(sampleNames.has(name) || families.includes(name), `${name} is queried but not served`).toBe(
        true,
      );
    const audioFamilies = families.filter((f) => f.startsWith('audio_merge_'));
    expect(audioFamilies).toHaveLength(8);
    for (const family of audioFamilies)
      expect(
        [...queried].some((q) => q.startsWith(family)),
        `${family} is on no panel`,
      ).toBe(true);
  });
});

describe("compose.yaml's Prometheus", () => {
  it('scrapes every audio-merge process on the METRICS_PORT they are given', () => {
    const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
      services: Record<string, { build?: string; environment?: Record<string, string>; volumes?: string[] }>;
    };
    const ours = Object.entries(compose.services).filter(([, s]) => s.build === '.');
    const config = compose.services.prometheus.volumes?.[0].split(':')[0] as string;
    const prometheus = parse(readFileSync(config, 'utf8')) as {
      scrape_configs: { static_configs: { targets: string[] }[] }[];
    };
    const targets = prometheus.scrape_configs.flatMap((c) => c.static_configs.flatMap((s) => s.targets));
    expect(targets.sort()).toEqual(
      ours.map(([name, s]) => `${name}:${s.environment?.METRICS_PORT ?? 'unset'}`).sort(),
    );
  });
});
