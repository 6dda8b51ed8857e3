/**
 * Every setting of a command, decided once: flag > environment > settings file > the run's journal
 * (for `agent resume`) > default. `agent` (a run), `agent resume`, `agent explain` and `agent config`
 * all call `resolveSettings`, so a dry run, a resumed run and the printed configuration cannot
 * disagree with the run about the same value.
 *
 * The journal fixes what a resumed run is (its chapter, its provider's model, its sandbox, network
 * and command time limit): a flag that would change one is refused, and a settings file's value
 * gives way to it.
 * It records nothing of the connection (endpoint, timeout, retries), which the other layers decide
 * for a resume as for a new run.
 */
import {
  loadPersonSettings,
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  SETTING_NAMES,
  type LoadedSettings,
  type SettingName,
} from "../../bootstrap.js";
import { profileNamed } from "../../core/profiles.js";
import { parseCliArgs, type CliOptions } from "../args.js";
import { keepRunSettings, sandboxSource, type RecordedSettings } from "./resume-settings.js";
import { givesFlag, SETTING_ENV, SETTING_FLAG, withFileSettings } from "./settings-layers.js";

type Env = Readonly<Record<string, string | undefined>>;

const GIVEN_ONLY: ReadonlySet<SettingName> = new Set(["profile", "rules"]);

/** What a resumed run's `run_started` record says of the run. */
export interface JournalLayer {
  readonly runId: string;
  readonly start: RecordedSettings & {
    readonly chapter: 1 | 2 | 3 | 4;
    /** The profile's id, when the journal records it (`daily` is resumed as itself). */
    readonly profile?: string | undefined;
    /**
     * The model the run was on last (its last `/model` switch, else its start); a replayed run's
     * names its recording (`replay of …`).
     */
    readonly model?: string | undefined;
  };
}

export interface RunSettings {
  /** Every option, each layer applied. */
  readonly options: CliOptions;
  /**
   * The environment with the settings file's values filled in where a variable is unset: the
   * model's endpoint and name are read from it as the run reads them.
   */
  readonly env: Env;
  readonly file: LoadedSettings;
  /** Where each value came from, in `agent config`'s words. */
  readonly origins: Readonly<Record<SettingName, string>>;
}

export interface SettingsHost {
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  readonly cwd: string;
}

export function resolveSettings(
  argv: readonly string[],
  host: SettingsHost,
  journal?: JournalLayer,
): RunSettings {
  const file = loadPersonSettings(host);
  const layered = withFileSettings(argv, host.env, file.values, journal !== undefined);
  // The journal's profile sits above the file's (`--chapter` and `--profile` are refused for a
  // resume): a named profile as itself, else the run's chapter.
  const named = journal?.start.profile;
  const journalProfile =
    named !== undefined && profileNamed(named) !== undefined ? named : undefined;
  const fromJournal =
    journal === undefined
      ? []
      : journalProfile !== undefined
        ? ["--profile", journalProfile]
        : ["--chapter", String(journal.start.chapter)];
  const [fileFlags, given] = [layered.argv.slice(0, layered.argv.length - argv.length), argv];
  const fileKept = journalProfile === undefined ? fileFlags : withoutFlag(fileFlags, "--chapter");
  let options = parseCliArgs([...fileKept, ...fromJournal, ...given], layered.env, host.cwd);
  const journalDecides = new Set<SettingName>();
  if (journal !== undefined) {
    journalDecides.add("chapter");
    // Whatever the file names, the run's own profile goes on (when its journal records one).
    if (journal.start.profile !== undefined) journalDecides.add("profile");
    const kept = keepRunSettings(journal.runId, journal.start, options, {
      sandbox: sandboxSource(argv, host.env),
      network: givesFlag(argv, "--network"),
      commandTimeout: givesFlag(argv, "--command-timeout"),
    });
    if (journal.start.sandbox !== undefined) journalDecides.add("sandbox");
    if (journal.start.network !== undefined) journalDecides.add("network");
    if (journal.start.commandTimeoutMs !== undefined) journalDecides.add("commandTimeout");
    // The provider's model the run used (a replayed run's "model" names a file, not a model).
    const model = journal.start.model;
    const providerModel =
      options.replay === undefined && model !== undefined && !model.startsWith("replay of ");
    if (providerModel) journalDecides.add("model");
    options = { ...options, ...kept, ...(providerModel ? { model } : {}) };
  }
  // The person's own rules come from their settings file and from nowhere else.
  if (file.values.rules !== undefined) options = { ...options, personalRules: file.values.rules };
  const origin = (name: SettingName): string => {
    // A named profile says its chapter, and beats a chapter given anywhere (settings.md).
    const profileName = options.profile.name;
    if (name === "chapter" && profileName !== undefined) {
      return `from profile ${profileName}, ${origin("profile")}`;
    }
    const flag = SETTING_FLAG[name];
    if (flag !== undefined && givesFlag(argv, flag)) return `flag ${flag}`;
    // A resume keeps what its journal recorded over the environment (a differing AGENT_SANDBOX
    // is refused before this).
    if (journalDecides.has(name)) return "the run's journal";
    const variable = SETTING_ENV[name];
    if (variable !== undefined && nonBlank(host.env[variable]) !== undefined) {
      return `environment ${variable}`;
    }
    if (file.values[name] !== undefined) return "settings file";
    if (name === "language") return "default, from $LANG";
    return "default";
  };
  // A profile beyond the chapters and the person's rules have no default: no origin unless given.
  const origins = Object.fromEntries(
    SETTING_NAMES.flatMap((name) => {
      const from = origin(name);
      return GIVEN_ONLY.has(name) && from === "default" ? [] : [[name, from]];
    }),
  ) as Record<SettingName, string>;
  return { options, env: layered.env, file, origins };
}

/** The model a run asks: `--model`, else OPENAI_MODEL (the file's fills it in), else built in. */
export function modelName(settings: RunSettings): string {
  return settings.options.model ?? nonBlank(settings.env.OPENAI_MODEL) ?? DEFAULT_MODEL;
}

/** The endpoint a run talks to, as given (unmasked: print it only through maskUrlCredentials). */
export function baseURL(settings: RunSettings): string {
  return nonBlank(settings.env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** `flags` without `flag` and its value (the settings file's flags, each given as two words). */
function withoutFlag(flags: readonly string[], flag: string): string[] {
  return flags.filter((_, at) => flags[at] !== flag && flags[at - 1] !== flag);
}
