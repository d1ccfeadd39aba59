import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = join(import.meta.dirname, '..', '..', '..');
let outDir: string;

/** bin/app.ts run as `cdk synth` runs it, with `context` as `-c` gives it, unbundled; its exit and stderr. */
function runApp(context: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolveRun) => {
    execFile(
      join(projectRoot, 'node_modules', '.bin', 'tsx'),
      ['bin/app.ts'],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          CDK_OUTDIR: outDir,
          CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], ...context }),
        },
        timeout: 60_000,
      },
      (error, _stdout, stderr) =>
        resolveRun({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
    );
  });
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'marginalia-app-'));
});
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('bin/app.ts and the site', () => {
  it('stops the synth without a site, naming the settings that fix it', async () => {
    const { code, stderr } = await runApp({});

    expect(code).not.toBe(0);
    expect(stderr).toMatch(/The stack needs your site.*-c siteUrl=https:\/\/blog\.example/);
  }, 60_000);

  it("takes Waline's SECURE_DOMAINS, bare hosts, as the allowed origins", async () => {
    const { code, stderr } = await runApp({ SECURE_DOMAINS: 'blog.example,www.blog.example' });

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const template = JSON.parse(await readFile(join(outDir, 'Marginalia.template.json'), 'utf8'));
    const api = Object.values(template.Resources as Record<string, { Type: string; Properties: never }>).find(
      (resource) => resource.Type === 'AWS::ApiGatewayV2::Api',
    ) as { Properties: { CorsConfiguration: { AllowOrigins: string[] } } };
    expect(api.Properties.CorsConfiguration.AllowOrigins).toEqual([
      'https://blog.example',
      'https://www.blog.example',
    ]);
  }, 60_000);
});
