-- Team server only (no SQLite twin: a solo process keeps these in memory). Claims on background jobs
-- shared by every serve process, and each ad account's Meta pacing, so processes pace together.

-- One row per job (its kind and the ID of the row its service persisted); the row is the claim.
-- A running job whose lease_until has passed belongs to a dead process: any other may take it over.
CREATE TABLE job_leases (
  kind TEXT NOT NULL,
  job_id TEXT NOT NULL,
  -- Jobs sharing a key never run at once (a sync's ad account).
  exclusive_key TEXT,
  status TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'running', 'done', 'failed')),
  owner TEXT,
  lease_until TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  offered_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ,
  PRIMARY KEY (kind, job_id)
);
-- What a claimer scans: the unfinished jobs, oldest first.
CREATE INDEX job_leases_unfinished ON job_leases (offered_at) WHERE status IN ('waiting', 'running');
-- The last word on exclusive keys: two claimers racing for one key cannot both commit.
CREATE UNIQUE INDEX job_leases_one_running ON job_leases (exclusive_key)
  WHERE status = 'running' AND exclusive_key IS NOT NULL;

-- Per ad account on one platform (platform/pacing.ts pacingKey): the last usage figures, and the time
-- before which no request may go out (Meta's estimated_time_to_regain_access).
CREATE TABLE ad_account_pacing (
  account_key TEXT PRIMARY KEY,
  usage_percent DOUBLE PRECISION NOT NULL,
  access_tier TEXT,
  blocked_until TIMESTAMPTZ NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL
);
