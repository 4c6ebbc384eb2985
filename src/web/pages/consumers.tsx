import type { ConsumerView } from "../../consumers/queries.js";
import { count, minute } from "../format.js";
import { Layout } from "../layout.js";
import { type Outcome, Outcomes } from "../outcome.js";
import { Table } from "../table.js";

/** The consumers' page of an administrator: the consumers they issued, with limits and keys, and the form issuing one. */
export function ConsumersPage({
  consumers,
  bounds,
  outcome,
}: {
  consumers: readonly ConsumerView[];
  bounds: { rateLimitPerMinute: Bound; dailyQuota: Bound };
  outcome: Outcome;
}) {
  return (
    <Layout title="API consumers">
      <p class="crumbs">
        <a href="/account">Your account</a>
      </p>
      <h1>API consumers</h1>
      <p class="lede">
        A consumer is a program reading the API with a key (sent in the X-API-Key header), within its own limits. These
        are the consumers you issued.
      </p>
      <Outcomes outcome={outcome} />
      {consumers.length === 0 ? (
        <p class="empty">You have issued no consumer yet.</p>
      ) : (
        consumers.map((c) => <Consumer consumer={c} />)
      )}
      <section>
        <h2>Issue a consumer</h2>
        <form class="panel" method="post" action="/account/api-consumers">
          <p>Its first key is shown once, on the next page: only a digest of it is kept.</p>
          <label for="name">Name</label>
          <input id="name" name="name" required maxlength={100} />
          <LimitInput name="rateLimitPerMinute" label="Requests a minute" bound={bounds.rateLimitPerMinute} />
          <LimitInput name="dailyQuota" label="Requests a day" bound={bounds.dailyQuota} />
          <button type="submit">Issue</button>
        </form>
      </section>
    </Layout>
  );
}

type Bound = { min: number; max: number; default: number };

/** A limit's field, bounded as the API bounds it and set to the API's default. */
function LimitInput({ name, label, bound }: { name: string; label: string; bound: Bound }) {
  return (
    <>
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="number"
        min={bound.min}
        max={bound.max}
        value={String(bound.default)}
        required
      />
    </>
  );
}

function Consumer({ consumer }: { consumer: ConsumerView }) {
  const path = `/account/api-consumers/${consumer.consumerId}`;
  return (
    <section>
      <h2>
        <a href={path}>{consumer.name}</a>
      </h2>
      <p>
        Consumer {consumer.consumerId}: {count(consumer.rateLimitPerMinute)} requests a minute,{" "}
        {count(consumer.dailyQuota)} a day. <a href={path}>Its usage</a>.
      </p>
      <Table
        caption={`Keys of ${consumer.name}`}
        columns={["Key", { text: "Starts" }, { text: "Issued" }, { text: "State" }]}
      >
        <tbody>
          {consumer.keys.map((k) => (
            <tr>
              <td>{k.keyId}</td>
              <td class="text">
                <code>{k.prefix}</code>
              </td>
              <td class="text">{minute(k.createdAt)}</td>
              <td class="text">
                {k.revokedAt ? (
                  `revoked ${minute(k.revokedAt)}`
                ) : (
                  <form class="inline" method="post" action={`${path}/keys/${k.keyId}/revocation`}>
                    active{" "}
                    <button type="submit" class="secondary" aria-label={`Revoke key ${k.keyId} of ${consumer.name}`}>
                      Revoke
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <form class="inline" method="post" action={`${path}/keys/rotation`}>
        <label>
          <input type="checkbox" name="confirm" value="yes" required /> Its programs' keys stop working
        </label>{" "}
        <button type="submit" aria-label={`Rotate keys of ${consumer.name}`}>
          Rotate keys
        </button>
      </form>
    </section>
  );
}

/** The one page showing a new key: after an issue or a rotation. */
export function IssuedKeyPage({ consumer, apiKey }: { consumer: ConsumerView; apiKey: string }) {
  return (
    <Layout title={`A new key for ${consumer.name}`}>
      <p class="crumbs">
        <a href="/account/api-consumers">API consumers</a>
      </p>
      <h1>A new key for {consumer.name}</h1>
      <p class="notice" role="status">
        Copy it now: it is shown this once, and cannot be shown again.
      </p>
      <p>
        <label for="api-key">The key</label>
        <br />
        <input id="api-key" class="key" readonly value={apiKey} size={60} />
      </p>
      <p>
        Send it in the <code>X-API-Key</code> header of every request, never in a URL (URLs are logged). Its own usage,
        for instance: <code>GET /api/v1/consumer/usage</code> with <code>X-API-Key: {apiKey}</code>.
      </p>
    </Layout>
  );
}
