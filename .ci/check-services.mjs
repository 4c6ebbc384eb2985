// Fails loudly when CI's PostgreSQL or Redis is unreachable, so the real-server suites can
// never be skipped silently.
import { Redis } from "ioredis";
import postgres from "postgres";

const { DATABASE_URL, REDIS_URL } = process.env;
const failures = [];

try {
  const sql = postgres(DATABASE_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
  const [{ version }] = await sql`select version()`;
  console.log(`PostgreSQL reachable at ${DATABASE_URL}: ${version.split(" on ")[0]}`);
  await sql.end();
} catch (error) {
  failures.push(`PostgreSQL unreachable at ${DATABASE_URL}: ${error.message}`);
}

const redis = new Redis(REDIS_URL, {
  lazyConnect: true,
  maxRetriesPerRequest: 0,
  connectTimeout: 5000,
  retryStrategy: () => null,
});
try {
  await redis.connect();
  console.log(`Redis reachable at ${REDIS_URL}: ${await redis.ping()}`);
} catch (error) {
  failures.push(`Redis unreachable at ${REDIS_URL}: ${error.message}`);
} finally {
  redis.disconnect();
}

if (failures.length > 0) {
  for (const failure of failures) console.error(`CI ERROR: ${failure}`);
  process.exit(1);
}
