// Closed-loop HTTP load from a worker thread, so the client does not share the server's event loop:
// `connections` loops each send GET `path` again as soon as the previous answer is read, for `durationMs`.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const { origin, path, headers, connections, durationMs, warmupMs } = workerData;
const pool = new Pool(origin, { connections, pipelining: 1 });

async function run(ms, record) {
  const deadline = performance.now() + ms;
  const loop = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const res = await pool.request({ method: 'GET', path, headers });
      const body = Buffer.from(await res.body.arrayBuffer());
      if (record) record(performance.now() - started, res.statusCode, body.length);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
}

await run(warmupMs);
const latencies = [];
let errors = 0;
let bytes = 0;
const started = performance.now();
await run(durationMs, (ms, status, size) => {
  latencies.push(ms);
  bytes = size;
  if (status !== 200) errors++;
});
const seconds = (performance.now() - started) / 1000;
await pool.close();
parentPort.postMessage({ latencies, errors, seconds, bytes });
