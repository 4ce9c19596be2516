// Every test file belongs to exactly one of the layers in vitest.config.ts (unit, integration,
// e2e): none is run twice by `npm test`, and none is left out of every `npm run test:*`. Vitest
// itself resolves the projects' include and exclude, so this is what a run would pick.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createVitest, type Vitest } from 'vitest/node';
import { ROOT } from './helpers/server';

const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist', 'release']);

function testFiles(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) testFiles(full, found);
    else if (/\.test\.tsx?$/.test(entry.name)) found.push(path.relative(ROOT, full).split(path.sep).join('/'));
  }
  return found;
}

let vitest: Vitest;
beforeAll(async () => {
  vitest = await createVitest('test', { root: ROOT, watch: false, run: false, reporters: [] });
});
afterAll(() => vitest?.close());

it('puts every test file in exactly one of unit, integration and e2e', async () => {
  expect(vitest.projects.map((project) => project.name).sort()).toEqual(['e2e', 'integration', 'unit']);
  const projectsOf = new Map<string, string[]>();
  for (const project of vitest.projects) {
    const { testFiles: files } = await project.globTestFiles();
    for (const file of files) {
      const relative = path.relative(ROOT, file).split(path.sep).join('/');
      projectsOf.set(relative, [...(projectsOf.get(relative) ?? []), project.name]);
    }
  }
  const files = testFiles(ROOT);
  expect(files.length).toBeGreaterThan(100);
  const wrong = files
    .filter((file) => projectsOf.get(file)?.length !== 1)
    .map((file) => `${file}: ${projectsOf.get(file)?.join(', ') || 'no project'}`);
  expect(wrong).toEqual([]);
  // And no project picks up a file that is not a test file found here.
  expect([...projectsOf.keys()].filter((file) => !files.includes(file))).toEqual([]);
});
