/**
 * The floor under a case's CPU: the DynamoDB requests one answer makes, recorded as the handlers send them
 * (capacity-recorder.ts) and sent again bare (bare-dynamodb.ts: signed, posted with node:http, parsed with
 * JSON.parse, nothing else). No server built on DynamoDB can answer the case for less CPU than this without
 * asking DynamoDB for less, so it bounds how far below Waline's CPU the case can go.
 */
import { loadConfig } from '../../functions/shared/config.js';
import { buildEvent, testContext } from '../../test/support/http-event.js';
import { createLocalFunctions } from '../local-functions.js';
import { createBareDynamoDb } from './bare-dynamodb.js';
import type { RecordedRequest } from './capacity-recorder.js';
import type { LoadCase } from './load-cases.js';
import { cpuMsOf, median } from './measure.js';

/** One case's requests and what they cost sent bare. */
export interface BareFloor {
  readonly name: string;
  /** The requests of one answer, in the order they were sent: `Query roots-by-time`, `GetItem`. */
  readonly requests: readonly string[];
  /** CPU of this process per answer's requests sent bare, one after another: the median of the rounds. */
  readonly bareCpuMs: number;
}

/** How the floor is measured: calls before measuring, then rounds of calls. */
export interface BareFloorSettings {
  readonly warmupCalls: number;
  readonly rounds: number;
  readonly callsPerRound: number;
}

/** As the SDK-overhead measure: enough calls to warm the JIT, rounds to take a median of. */
export const defaultBareFloorSettings: BareFloorSettings = {
  warmupCalls: 500,
  rounds: 9,
  callsPerRound: 100,
};

/**
 * Records the requests of one answer to each GET case in `cases` (through handlers with the list cache off,
 * pointed at the recorder), then sends them bare to `endpoint`, and measures their CPU.
 */
export async function measureBareFloors(
  context: {
    /** The recorder's endpoint, and what it saw since the last call. */
    readonly recorderEndpoint: string;
    readonly take: () => RecordedRequest[];
    /** DynamoDB Local itself, for the bare requests. */
    readonly endpoint: string;
    readonly tableName: string;
  },
  cases: readonly LoadCase[],
  settings: BareFloorSettings = defaultBareFloorSettings,
): Promise<BareFloor[]> {
  const { handlers } = createLocalFunctions(
    loadConfig({
      TABLE_NAME: context.tableName,
      DYNAMODB_ENDPOINT: context.recorderEndpoint,
      IP_HASH_SALT: 'marginalia-bench-salt-0123456789',
      LIST_CACHE_MS: '0',
    }),
  );
  const bare = await createBareDynamoDb(context.endpoint, process.env.AWS_REGION ?? 'us-east-1', {
    accessKeyId: 'local',
    secretAccessKey: 'local',
  });
  try {
    const floors: BareFloor[] = [];
    for (const loadCase of cases) {
      if (loadCase.method !== 'GET') continue;
      const url = new URL(loadCase.target, 'http://bench');
      const event = buildEvent({ path: url.pathname, query: url.search.slice(1) });
      // The first answer also checks the table's layout, once per instance: the second is every answer.
      for (let call = 0; call < 2; call++) {
        context.take();
        const result = await handlers.comment(event, testContext);
        if (result.statusCode !== 200) {
          throw new Error(`${loadCase.name}: HTTP ${result.statusCode} ${result.body ?? ''}`);
        }
      }
      const requests = context.take();
      const send = async () => {
        for (const request of requests) await bare.call(request.operation, { ...request.input });
      };
      floors.push({
        name: loadCase.name,
        requests: requests.map(({ operation, index }) => (index ? `${operation} ${index}` : operation)),
        bareCpuMs: await medianCpuMs(send, settings),
      });
    }
    return floors;
  } finally {
    bare.close();
  }
}

async function medianCpuMs(call: () => Promise<void>, settings: BareFloorSettings): Promise<number> {
  const calls = async (times: number) => {
    for (let done = 0; done < times; done++) await call();
  };
  await calls(settings.warmupCalls);
  const rounds: number[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    rounds.push((await cpuMsOf(() => calls(settings.callsPerRound))) / settings.callsPerRound);
  }
  return median(rounds);
}
