import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import restrictedPaths from './eslint-rules/restricted-paths.js';

/** Every non-test source file under a folder (tests beside the code may reach further to check it). */
const code = (dir) => `${dir}/**/!(*.test).{ts,tsx}`;

// The engine, bottom up, and what each folder may import besides npm packages (paths under src/):
// the tools (mp3/ and mp4/, the frame and packet libraries; io/; ffmpeg/) and plan/, pure
// arithmetic; then inputs/ (probe, meta), output/ (what the routes share: their context and the
// writers), sound/ and timeline/; then routes/, one file a route, none importing another. merge/
// runs them all, and only the engine's index imports it.
const TOOLS = [
  './engine/errors.ts',
  './engine/types.ts',
  './engine/io',
  './engine/mp3',
  './engine/mp4',
  './engine/ffmpeg',
  './engine/plan',
  './shared',
];
const ENGINE_LAYERS = [
  {
    folder: 'inputs',
    may: [...TOOLS, './engine/inputs'],
    message: 'inputs/ imports only the tools (ffmpeg/, io/, mp3/, mp4/) and plan/.',
  },
  {
    folder: 'output',
    may: [...TOOLS, './engine/inputs', './engine/output'],
    message: 'output/ imports only the tools, plan/ and inputs/.',
  },
  {
    folder: 'sound',
    may: [...TOOLS, './engine/inputs', './engine/output', './engine/sound'],
    message: 'sound/ imports only the tools, plan/, inputs/ and output/ (not timeline/, routes/, merge/).',
  },
  {
    folder: 'timeline',
    may: [...TOOLS, './engine/inputs', './engine/output', './engine/timeline'],
    message: 'timeline/ imports only the tools, plan/, inputs/ and output/ (not sound/, routes/, merge/).',
  },
  {
    folder: 'routes',
    may: [...TOOLS, './engine/inputs', './engine/output', './engine/sound', './engine/timeline'],
    message:
      'A route imports no other route (what routes share lives in output/, timeline/, sound/, plan/), nor merge/.',
  },
];

const ZONES = [
  {
    target: './src/engine',
    from: ['./src/cli', './src/server', './src/widget', './src/main.ts'],
    message: 'The engine knows nothing of its consumers.',
  },
  {
    target: './src/engine/mp3',
    from: './src',
    except: ['./engine/mp3', './engine/io', './engine/errors.ts'],
    message:
      'mp3/ is the codec-free frame library: it imports only io/ and errors.ts (no ffmpeg/, no pipeline).',
  },
  {
    target: [
      code('./src/engine/ffmpeg'),
      code('./src/engine/io'),
      code('./src/engine/mp4'),
      './src/engine/types.ts',
    ],
    from: './src',
    except: TOOLS,
    message:
      'The tools (ffmpeg/, io/, mp4/) and types.ts import only each other, mp3/, plan/ and src/shared.',
  },
  {
    // Nothing here spawns a process or touches a file (no-restricted-imports below keeps node:fs
    // and node:child_process out); ffmpeg/'s types are the shapes of what the tools measure.
    target: code('./src/engine/plan'),
    from: './src',
    except: ['./engine/plan', './engine/types.ts', './engine/errors.ts', './engine/mp3/gain.ts', './shared'],
    exceptTypes: ['./engine/ffmpeg'],
    message:
      "plan/ is pure arithmetic: it imports only plan/, types.ts, errors.ts, mp3/gain.ts, src/shared and ffmpeg/'s types.",
  },
  ...ENGINE_LAYERS.map(({ folder, may, message }) => ({
    target: code(`./src/engine/${folder}`),
    from: './src',
    except: may,
    message,
  })),
  {
    target: ['./src/cli', './src/server', './src/main.ts'],
    from: './src/engine',
    except: ['./index.ts'],
    message: 'Consumers use the engine through src/engine/index.ts only.',
  },
  {
    target: './src/widget',
    from: './src',
    except: ['./widget', './shared'],
    message: 'The widget imports only src/widget and src/shared (and npm packages).',
  },
  {
    target: './src/shared',
    from: './src',
    except: ['./shared'],
    message: 'src/shared imports nothing from the other src folders.',
  },
  {
    target: './src/**/!(*.test).{ts,tsx}',
    from: './test',
    message: 'Nothing in src/ imports test/ (only tests beside the code may).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'bench/.corpus/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The command line's launcher is CommonJS on purpose (it starts sooner; see the file).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/widget/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Dependencies point one way, checked on resolved paths (a file that moves keeps its rules).
    // The zones are written out in docs/architecture.md; test/lint-zones.test.ts proves each one.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { local: { rules: { 'no-restricted-paths': restrictedPaths } } },
    rules: {
      'local/no-restricted-paths': ['error', { zones: ZONES }],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['fastify', 'better-sqlite3', 'socket.io', 'react'] }],
    },
  },
  {
    // The frame library never spawns a process (its tests may run ffmpeg to check what it wrote).
    files: ['src/engine/mp3/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['fastify', 'better-sqlite3', 'socket.io', 'react', 'node:child_process', 'child_process'],
        },
      ],
    },
  },
  {
    // The plan is arithmetic: it neither spawns a process nor touches a file (its tests may).
    files: ['src/engine/plan/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...['fastify', 'better-sqlite3', 'socket.io', 'react'],
            ...['node:child_process', 'child_process', 'node:fs', 'fs', 'node:fs/promises', 'fs/promises'],
          ],
        },
      ],
    },
  },
);
