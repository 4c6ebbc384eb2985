-- The keys personal data in events is sealed under (src/personal-data): one per account,
-- created with its first personal event and deleted when the account is tombstoned. Deleting
-- the key erases that data wherever the events are, replays and rebuilds included
-- (crypto-shredding). Kept in this database whichever adapter stores the events.
create table personal_data_keys (
  account_id text primary key,
  -- AES-256-GCM
  key bytea not null check (length(key) = 32),
  created_at timestamptz not null default now()
);
