import type { QueryDefinition } from "./definition.js";
import { type Evaluation, type EvaluationContext, evaluate } from "./evaluate.js";
import { describeDefinition } from "./paraphrase.js";
import { translate } from "./translate.js";

/** A question in English, answered: how it was read (none when it could not be), and the evaluation of that reading. */
export type Answer = {
  question: string;
  interpretation: { definition: QueryDefinition; paraphrase: string } | null;
} & (Evaluation | Exclude<ReturnType<typeof translate>, { definition: QueryDefinition }>);

/** Reads a question into a definition and evaluates it: what POST /natural-language-queries and the question page answer. */
export async function answer(context: EvaluationContext, question: string): Promise<Answer> {
  const translation = translate(question, context.vocabulary);
  if (!("definition" in translation)) return { question, interpretation: null, ...translation };
  const evaluation = await evaluate(context, translation.definition);
  const paraphrase =
    evaluation.outcome === "answered" ? evaluation.paraphrase : describeDefinition(translation.definition);
  return { question, interpretation: { definition: translation.definition, paraphrase }, ...evaluation };
}
