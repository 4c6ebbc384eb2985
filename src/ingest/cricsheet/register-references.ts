import { competitionStream } from "../../../streams/competition.js";
import { catalogue } from "../../../streams/index.js";
import { participantStream } from "../../../streams/participant.js";
import { seasonStream } from "../../../streams/season.js";
import { teamStream } from "../../../streams/team.js";
import { venueStream } from "../../../streams/venue.js";
import { vocabularyCatalogue, vocabularyStream } from "../../../streams/vocabulary.js";
import { type CommandContext, handleCommand } from "../../commands/handle.js";
import {
  type AddTerms,
  addTerms,
  type RegisterNamed,
  registerNamed,
  registerOnce,
} from "../../commands/reference/register.js";
import type { EventStore } from "../../event-store/port.js";
import type { MatchImport } from "./map.js";
import { PeopleRegister } from "./people-register.js";

/**
 * Registers the competition, season, teams, venue, players and dismissal kinds a match
 * refers to. Remembers what this run has already registered, so a season's worth of files
 * reads each player's stream once, not once per match.
 */
export class ReferenceRegistrar {
  private readonly done = new Map<string, Promise<unknown>>();
  private readonly knownTerms = new Set<string>();
  private vocabulary: Promise<unknown> = Promise.resolve();
  private readonly people = PeopleRegister.load();

  constructor(
    private readonly store: EventStore,
    private readonly context: () => CommandContext,
  ) {}

  async register(match: MatchImport): Promise<void> {
    const { competition, season, teams, venue, participants, dismissalKinds } = match;
    await this.named(competitionStream(competition.id), {
      kind: "Competition",
      id: competition.id,
      name: competition.name,
      registration: { sourceIds: competition.sourceIds },
    });
    if (competition.spelledAs !== competition.name) {
      await this.named(competitionStream(competition.id), {
        kind: "Competition",
        id: competition.id,
        name: competition.spelledAs,
        registration: {},
      });
    }
    await this.once(seasonStream(season.id), {
      type: "SeasonRegistered",
      data: { seasonId: season.id, competitionId: season.competitionId, label: season.label },
    });
    const work: Promise<unknown>[] = [];
    for (const team of teams) {
      const registration = { teamType: team.teamType, gender: team.gender, sourceIds: team.sourceIds };
      work.push(
        this.named(teamStream(team.id), { kind: "Team", id: team.id, name: team.name, registration }).then(() =>
          this.named(teamStream(team.id), { kind: "Team", id: team.id, name: team.playedAs, registration }),
        ),
      );
    }
    if (venue) {
      const registration = { city: venue.city, latitude: null, longitude: null, sourceIds: venue.sourceIds };
      work.push(
        this.named(venueStream(venue.id), { kind: "Venue", id: venue.id, name: venue.name, registration }).then(() =>
          this.named(venueStream(venue.id), { kind: "Venue", id: venue.id, name: venue.spelledAs, registration }),
        ),
      );
    }
    const people = await this.people;
    for (const p of participants) {
      const registration = { sourceIds: p.sourceIds };
      // The match's spelling registers the participant; the register's names are added to it.
      const names = new Set([p.name, ...people.namesOf(p.registerId)]);
      work.push(
        (async () => {
          for (const name of names)
            await this.named(participantStream(p.id), { kind: "Participant", id: p.id, name, registration });
        })(),
      );
    }
    work.push(this.terms(dismissalKinds));
    await Promise.all(work);
  }

  private named(stream: string, command: RegisterNamed) {
    return this.remember(`${stream}|${command.name}`, () =>
      handleCommand(this.store, catalogue, stream, registerNamed, command, this.context()),
    );
  }

  private once(stream: string, command: { type: string; data: Record<string, unknown> }) {
    return this.remember(stream, () =>
      handleCommand(this.store, catalogue, stream, registerOnce, command, this.context()),
    );
  }

  /**
   * Every match adds to the one vocabulary stream: new terms go in a queue of their own,
   * one append at a time, instead of racing each other for the stream's revision.
   */
  private terms(terms: readonly string[]) {
    const fresh = terms.filter((term) => !this.knownTerms.has(term));
    if (fresh.length === 0) return this.vocabulary;
    for (const term of fresh) this.knownTerms.add(term);
    const stream = vocabularyStream("dismissal_kind");
    const command: AddTerms = { vocabulary: "dismissal_kind", terms: fresh };
    const added = this.vocabulary.then(() =>
      handleCommand(this.store, vocabularyCatalogue, stream, addTerms, command, this.context()),
    );
    this.vocabulary = added.catch((error: unknown) => {
      for (const term of fresh) this.knownTerms.delete(term);
      throw error;
    });
    return added;
  }

  private remember(key: string, work: () => Promise<unknown>): Promise<unknown> {
    let pending = this.done.get(key);
    if (!pending) {
      pending = work();
      this.done.set(key, pending);
      // A failure must not be remembered as done.
      pending.catch(() => this.done.delete(key));
    }
    return pending;
  }
}
