-- Usage telemetry of keyed requests. Operational data, not ledger events: counts of requests
-- per UTC date, consumer, key, method, route template and status class, added to by each
-- flush of the in-process aggregate (src/usage/recorder.ts) and removed after 31 days
-- (src/usage/cleanup.ts). It holds nothing else about a request: no URL, query, key or address.
create table api_usage (
  usage_date date not null,
  consumer_id integer not null,
  key_id integer not null,
  method text not null,
  route text not null,
  status_class text not null,
  requests bigint not null check (requests > 0),
  -- Consumer first: every read is one consumer's dates.
  primary key (consumer_id, usage_date, key_id, method, route, status_class)
);
-- The hourly retention cleanup deletes by date across all consumers.
create index api_usage_by_date on api_usage (usage_date);
