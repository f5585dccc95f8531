/**
 * Cluster (issue 26, item 5): the load benchmark's users and mix (bench/load.bench.ts) through
 * Debian's haproxy in front of Steward's processes on PostgreSQL (TEST_DATABASE_URL), as
 * `npm run test:cluster` starts them (tests/cluster/cluster.ts), in four set-ups:
 *
 * - one `STEWARD_ROLE=all` process with its files on its local disk;
 * - the same with its files in an S3 bucket (s3rver on this machine);
 * - one `STEWARD_ROLE=api` process and a worker, files in the bucket;
 * - two API processes and a worker, files in the bucket.
 *
 * It reports what it measures; on a 2-core machine, processes compete for the same cores, so
 * it shows the cost of the balancer and the bucket, not how far more machines scale.
 * `CLUSTER_SECONDS` (default 30) per set-up; `npx tsx bench/cluster.bench.ts` runs it alone.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { startCluster, type ClusterOptions } from '../tests/cluster/cluster.ts';
import { WriteLedger } from './support/load-ledger.ts';
import { runLoad, DEFAULT_WORLD } from './support/load-session.ts';
import { buildOrganizations, seedDocuments } from './support/load-world.ts';

const SETUPS: { label: string; options: ClusterOptions }[] = [
  { label: 'one process, local disk', options: { files: 'disk' } },
  { label: 'one process, S3 bucket', options: { allInOne: true } },
  { label: '1 API process + worker, S3', options: { apiProcesses: 1 } },
  { label: '2 API processes + worker, S3', options: { apiProcesses: 2 } },
];

export async function run(options: { seconds?: number } = {}) {
  const seconds = options.seconds ?? Number(process.env.CLUSTER_SECONDS ?? 30);
  const lines = [
    `cluster: ${DEFAULT_WORLD.organizations * DEFAULT_WORLD.usersPerOrganization} users of ` +
      `${DEFAULT_WORLD.organizations} organisations (the load bench's mix), ${seconds} s each, ` +
      `through haproxy, PostgreSQL`,
  ];
  let pass = true;
  for (const setup of SETUPS) {
    const cluster = await startCluster({
      ...setup.options,
      // The set-up signs everyone up from one address as fast as it can.
      env: { AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000', AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000' },
    });
    try {
      const world = { ...DEFAULT_WORLD, runId: randomBytes(4).toString('hex') };
      const ledger = new WriteLedger();
      const organizations = await buildOrganizations(cluster.url, cluster.keys.anonKey, world);
      await seedDocuments(organizations, world, ledger);
      const metrics = await runLoad({ ledger, organizations, runId: world.runId }, { seconds });
      const { requests, errors } = metrics.totals;
      const crossOrg = metrics.crossOrganization.length;
      pass &&= errors === 0 && crossOrg === 0;
      lines.push(
        `  ${setup.label}: ${(requests / metrics.seconds).toFixed(1)} requests/s ` +
          `(${requests} requests, ${errors} errors, ${crossOrg} cross-organisation)`,
        ...metrics.table(),
      );
    } finally {
      await cluster.close();
    }
  }
  lines.push(`  ${pass ? 'PASS' : 'FAIL'} (targets: 0 errors, 0 cross-organisation)`);
  return { name: 'cluster', pass, lines };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.lines.join('\n'));
  process.exitCode = result.pass ? 0 : 1;
}
