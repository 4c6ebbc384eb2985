import { count } from "./format.js";
/** What the last form did: a notice of success, or the refusal in the API's words (its first details, the rest counted). */
export type Outcome = { notice?: string; problem?: { message: string; details: string[]; more: number } };

export function Outcomes({ outcome }: { outcome: Outcome }) {
  const { notice, problem } = outcome;
  return (
    <>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {problem && (
        <div class="problem" role="alert">
          <p>{problem.message}</p>
          {problem.details.length > 0 && (
            <ul>
              {problem.details.map((detail) => (
                <li>{detail}</li>
              ))}
            </ul>
          )}
          {problem.more > 0 && <p>And {count(problem.more)} more.</p>}
        </div>
      )}
    </>
  );
}
