import { defineConfig } from 'vite';

// Library build: one self-contained module script the host page loads.
export default defineConfig({
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // Production JSX whatever NODE_ENV the caller has (vitest sets "test", which would pick jsxDEV).
  oxc: { jsx: { runtime: 'automatic', development: false } },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    sourcemap: true,
    // Library mode keeps ES output readable; this bundle goes to browsers as is, so minify it fully.
    rolldownOptions: { output: { minify: true } },
    lib: {
      entry: 'src/widget/main.tsx',
      formats: ['es'],
      fileName: () => 'audio-merge.js',
    },
  },
});
