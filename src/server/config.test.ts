import { describe, expect, it } from 'vitest';
import { checkRole, configFromEnv, describeConfig, resolveConfig } from './config.js';

const env = {
  DATABASE_URL: 'postgres://am:pg-secret@db:5432/am',
  REDIS_URL: 'redis://:redis-secret@redis:6379',
  S3_ENDPOINT: 'http://minio:9000',
  S3_BUCKET: 'audio',
  S3_ACCESS_KEY_ID: 'minio',
  S3_SECRET_ACCESS_KEY: 's3-secret',
  S3_FORCE_PATH_STYLE: 'true',
  ROLE: 'worker',
  MERGE_STALL_SECONDS: '5',
};

describe('configuration for more than one machine', () => {
  it('reads DATABASE_URL, REDIS_URL, the S3 variables and ROLE', () => {
    expect(configFromEnv(env)).toMatchObject({
      databaseUrl: env.DATABASE_URL,
      redisUrl: env.REDIS_URL,
      s3: {
        endpoint: 'http://minio:9000',
        bucket: 'audio',
        region: 'us-east-1',
        accessKeyId: 'minio',
        secretAccessKey: 's3-secret',
        forcePathStyle: true,
      },
      role: 'worker',
      mergeStallMs: 5000,
    });
  });

  it('runs everything in one process on the embedded default when none is set', () => {
    const c = resolveConfig(configFromEnv({}));
    expect([c.role, c.databaseUrl, c.redisUrl, c.s3]).toEqual(['all', undefined, undefined, undefined]);
  });

  it('refuses an unknown role, a non-postgres database and S3 without a bucket, naming the variable', () => {
    expect(() => configFromEnv({ ROLE: 'both' })).toThrow(/ROLE must be one of all, web, worker, got "both"/);
    expect(() => configFromEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => configFromEnv({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_BUCKET/);
  });

  it('refuses a web or worker role without the database, queue and bucket it must share', () => {
    expect(() =>
      checkRole(resolveConfig(configFromEnv({ ROLE: 'worker', REDIS_URL: env.REDIS_URL }))),
    ).toThrow('ROLE=worker needs DATABASE_URL, S3_BUCKET (shared by every web and worker process)');
    expect(() => checkRole(resolveConfig(configFromEnv(env)))).not.toThrow();
    expect(() => checkRole(resolveConfig(configFromEnv({})))).not.toThrow();
  });

  it('describes itself for the start-up log without passwords or the secret key', () => {
    const text = JSON.stringify(describeConfig(resolveConfig(configFromEnv(env))));
    expect(text).not.toMatch(/pg-secret|redis-secret|s3-secret/);
    expect(text).toContain('db:5432');
    expect(text).toContain('s3://audio');
    expect(text).not.toContain('socketPort');
  });
});

describe('local copies of uploads (S3_CACHE_MB)', () => {
  it('keeps up to 1 GiB by default, S3_CACHE_MB otherwise, 0 for none, and needs no bucket to be read', () => {
    expect(resolveConfig(configFromEnv(env)).localCopiesBytes).toBe(1024 * 1024 * 1024);
    expect(configFromEnv({ ...env, S3_CACHE_MB: '256' }).localCopiesBytes).toBe(256 * 1024 * 1024);
    expect(configFromEnv({ S3_CACHE_MB: '0' })).toEqual({ localCopiesBytes: 0 });
    expect(() => configFromEnv({ S3_CACHE_MB: 'lots' })).toThrow(/S3_CACHE_MB/);
  });

  it('tells the start-up log how much a merging process keeps, and nothing of it for a web process', () => {
    expect(
      describeConfig(resolveConfig(configFromEnv({ ...env, ROLE: 'worker', S3_CACHE_MB: '300' }))),
    ).toMatchObject({ localCopies: 'up to 300 MiB' });
    expect(describeConfig(resolveConfig(configFromEnv({ ...env, ROLE: 'web' })))).not.toHaveProperty(
      'localCopies',
    );
  });
});

describe('configuration behind a proxy', () => {
  it('reads PUBLIC_ORIGIN as a list of origins and TRUST_PROXY as a list of proxy addresses', () => {
    expect(
      configFromEnv({ PUBLIC_ORIGIN: 'https://audio.example.com, https://Other.example:8443/' }),
    ).toMatchObject({
      publicOrigins: ['https://audio.example.com', 'https://other.example:8443'],
    });
    expect(
      configFromEnv({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback, fd00::/8' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.168.1.7', 'loopback', 'fd00::/8']);
    const c = resolveConfig(configFromEnv({}));
    expect([c.publicOrigins, c.trustedProxies]).toEqual([[], []]);
  });

  it('refuses an origin with a path or another scheme, and a TRUST_PROXY that is not a count, naming the variable', () => {
    expect(() => configFromEnv({ PUBLIC_ORIGIN: 'https://audio.example.com/app' })).toThrow(
      /PUBLIC_ORIGIN .*"https:\/\/audio.example.com\/app"/,
    );
    expect(() => configFromEnv({ PUBLIC_ORIGIN: 'audio.example.com' })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => configFromEnv({ PUBLIC_ORIGIN: 'ftp://audio.example.com' })).toThrow(/PUBLIC_ORIGIN/);
    // A count or "true" would trust X-Forwarded-For from anyone who sends it.
    for (const bad of ['1', 'true', '10.0.0.0/40', 'proxy.example']) {
      expect(() => configFromEnv({ TRUST_PROXY: bad })).toThrow(
        `TRUST_PROXY must list proxy addresses or subnets (10.0.0.0/8, loopback...), got "${bad}"`,
      );
    }
  });
});
