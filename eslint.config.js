import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import restrictedPaths from './eslint-rules/restricted-paths.js';

/** The layer rules (eslint-rules/restricted-paths.js: files in `target` may not import from `from`). */
const ZONES = [
  {
    target: './src/engine/mp3',
    from: ['./src/engine/ffmpeg', './src/engine/pipeline'],
    message: 'mp3/ is the codec-free frame library: it imports nothing from ffmpeg/ or pipeline/.',
  },
  {
    target: './src/engine',
    from: ['./src/cli', './src/server', './src/widget', './src/main.ts'],
    message: 'The engine knows nothing of its consumers.',
  },
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
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'bench/.corpus/**'] },
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
);
