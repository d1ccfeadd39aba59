/**
 * The stack as `cdk synth` writes it for `cdk deploy`: the template, and for each Lambda function the
 * folder of its code asset (the bundle and its source map), found the way the deploy finds what to upload:
 * the function's `Code.S3Key` in the template is an object key in the asset manifest, which names the folder.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/bundle-options.js';

/** One AWS::Lambda::Function of the synthesized template. */
export interface SynthesizedFunction {
  /** Its logical ID, e.g. `CommentFunction2F5ABBA1`. */
  readonly logicalId: string;
  /** e.g. `nodejs22.x`. */
  readonly runtime: string;
  /** e.g. `index.handler`. */
  readonly handler: string;
  readonly timeoutSeconds: number;
  readonly memorySize: number;
  /** As the template sets it: strings, or CloudFormation expressions CloudFormation resolves at deploy. */
  readonly environment: Readonly<Record<string, unknown>>;
  /** The folder `cdk deploy` zips and uploads as the function's code. */
  readonly codeDir: string;
}

interface CloudAssemblyManifest {
  artifacts: Record<string, { type: string; properties?: { templateFile?: string; file?: string } }>;
}

interface AssetManifest {
  files: Record<
    string,
    { source: { path: string; packaging?: string }; destinations: Record<string, { objectKey: string }> }
  >;
}

interface LambdaResource {
  Type: string;
  Properties: {
    Runtime: string;
    Handler: string;
    Timeout?: number;
    MemorySize?: number;
    Code: { S3Key?: unknown };
    Environment?: { Variables?: Record<string, unknown> };
  };
}

/**
 * Runs `cdk synth <stack>` (the app of cdk.json, as a deploy does) into `outDir`, bundling the functions,
 * and returns the stack's Lambda functions.
 */
export async function synthesizeStack(outDir: string, stackName: string): Promise<SynthesizedFunction[]> {
  await new Promise<void>((resolveSynth, reject) => {
    execFile(
      join(projectRoot, 'node_modules', '.bin', 'cdk'),
      // A deploy names the site (lib/site-origins.ts); which one changes nothing the bundles hold.
      [
        'synth',
        stackName,
        '-c',
        'siteUrl=https://blog.example',
        '--output',
        outDir,
        '--quiet',
        '--no-notices',
      ],
      {
        cwd: projectRoot,
        env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`cdk synth failed: ${error.message}\n${stdout}${stderr}`, { cause: error }));
        else resolveSynth();
      },
    );
  });

  const manifest = await readJson<CloudAssemblyManifest>(join(outDir, 'manifest.json'));
  const templateFile = manifest.artifacts[stackName]?.properties?.templateFile;
  const assetFiles = Object.values(manifest.artifacts)
    .filter((artifact) => artifact.type === 'cdk:asset-manifest' && artifact.properties?.file)
    .map((artifact) => artifact.properties?.file as string);
  if (!templateFile || assetFiles.length === 0) {
    throw new Error(`${outDir}/manifest.json: no template or asset manifest for stack ${stackName}`);
  }
  const template = await readJson<{ Resources: Record<string, LambdaResource> }>(join(outDir, templateFile));
  const assets = (
    await Promise.all(assetFiles.map((file) => readJson<AssetManifest>(join(outDir, file))))
  ).flatMap((assetManifest) => Object.values(assetManifest.files));

  return (
    Object.entries(template.Resources)
      // Functions with inline code (`Code.ZipFile`), such as some custom resources, have no asset.
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Code.S3Key)
      .map(([logicalId, { Properties: properties }]) => {
        const key = properties.Code.S3Key;
        const asset = assets.find((file) =>
          Object.values(file.destinations).some((destination) => destination.objectKey === key),
        );
        if (!asset || asset.source.packaging !== 'zip') {
          throw new Error(`${logicalId}: no zipped folder in the asset manifest uploads as ${String(key)}`);
        }
        return {
          logicalId,
          runtime: properties.Runtime,
          handler: properties.Handler,
          // CloudFormation's defaults, should the template leave them out.
          timeoutSeconds: properties.Timeout ?? 3,
          memorySize: properties.MemorySize ?? 128,
          environment: properties.Environment?.Variables ?? {},
          codeDir: join(outDir, asset.source.path),
        };
      })
  );
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}
