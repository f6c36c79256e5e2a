// The layer rules as zones on resolved paths: a file in `target` may not import a file in `from`
// except the paths in `except` (relative to each `from`) and, when the import brings types only,
// the paths in `exceptTypes` (a type carries none of its file's code along). Written here rather
// than taken from eslint-plugin-import-x: that plugin's resolver (unrs-resolver) has platform
// packages the registry this project installs from does not carry, so `npm ci` refused its lock
// file.
import path from 'node:path';

const asList = (v) => (Array.isArray(v) ? v : [v]);
const inside = (file, dir) => file === dir || file.startsWith(dir + path.sep);
/** `./x.js` in a source means `./x.ts`: compare without the extension. */
const stem = (file) => file.replace(/\.(c|m)?[jt]sx?$/, '');

function targetMatches(target, file, root) {
  // The one glob form the zones use: every non-test source file under a folder.
  const glob = /^(.*)\/\*\*\/!\(\*\.test\)\.\{ts,tsx\}$/.exec(target);
  if (glob)
    return inside(file, path.resolve(root, glob[1])) && /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file);
  return inside(stem(file), stem(path.resolve(root, target)));
}

function forbidden(zone, imported, types, root) {
  return asList(zone.from).some((from) => {
    const dir = path.resolve(root, from);
    if (!inside(stem(imported), stem(dir))) return false;
    const allowed = [...(zone.except ?? []), ...(types ? (zone.exceptTypes ?? []) : [])];
    return !allowed.some((e) => inside(stem(imported), stem(path.resolve(dir, e))));
  });
}

/** `import type {…}`, `import { type A, type B }`, `export type {…} from`: nothing but types. */
function typesOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Files in a zone may not import from the paths the zone forbids' },
    schema: [{ type: 'object', properties: { zones: { type: 'array' } }, additionalProperties: false }],
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const zones = (context.options[0]?.zones ?? []).filter((z) =>
      asList(z.target).some((t) => targetMatches(t, file, root)),
    );
    if (zones.length === 0) return {};
    const check = (node, types = false) => {
      const spec = node?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const imported = path.resolve(path.dirname(file), spec);
      const zone = zones.find((z) => forbidden(z, imported, types, root));
      if (zone)
        context.report({
          node,
          message: `Unexpected path "${spec}" imported in restricted zone. ${zone.message}`,
        });
    };
    return {
      ImportDeclaration: (n) => check(n.source, typesOnly(n)),
      ExportNamedDeclaration: (n) => check(n.source, typesOnly(n)),
      ExportAllDeclaration: (n) => check(n.source, typesOnly(n)),
      ImportExpression: (n) => check(n.source),
    };
  },
};
