import { describe, expect, it } from "vitest";
import {
  CAPABILITIES,
  CapabilitySet,
  isCanonicalProfile,
  LATEST_CHAPTER,
  P01,
  P02,
  P03,
  profileForChapter,
  PROFILES,
  type Capability,
} from "../../src/core/profiles.js";

describe("chapter profiles", () => {
  it.each([
    [P01, "P01", 1, ["loop", "powershell", "tool_registry"]],
    [P02, "P02", 2, ["loop", "powershell", "tool_registry", "files"]],
    [P03, "P03", 3, ["loop", "powershell", "tool_registry", "files", "policy"]],
  ] as const)("%#: %s has its capabilities and is frozen", (profile, id, chapter, capabilities) => {
    expect(profile.id).toBe(id);
    expect(profile.chapter).toBe(chapter);
    expect(profile.capabilities.toArray()).toEqual(capabilities);
    expect(profile.capabilities.size).toBe(capabilities.length);
    expect(Object.isFrozen(profile)).toBe(true);
    expect(Object.isFrozen(profile.capabilities)).toBe(true);
    expect(() => {
      Object.assign(profile, { capabilities: new CapabilitySet(CAPABILITIES) });
    }).toThrow(TypeError);
  });

  it("only P03 has policy; P01 has no files", () => {
    expect(PROFILES.map((profile) => profile.capabilities.has("policy"))).toEqual([
      false,
      false,
      true,
    ]);
    expect(P01.capabilities.has("files")).toBe(false);
  });

  it("the lists of capabilities and profiles are frozen", () => {
    expect(CAPABILITIES).toEqual(["loop", "powershell", "tool_registry", "files", "policy"]);
    expect(Object.isFrozen(CAPABILITIES)).toBe(true);
    expect(Object.isFrozen(PROFILES)).toBe(true);
    expect(LATEST_CHAPTER).toBe(3);
  });
});

describe("CapabilitySet", () => {
  it("exposes only read methods and no reachable Set", () => {
    const set = new CapabilitySet(["loop", "files"]);
    const prototypeMethods = Object.getOwnPropertyNames(CapabilitySet.prototype).sort();
    expect(prototypeMethods).toEqual(["constructor", "has", "size", "toArray"]);
    expect(Object.getOwnPropertyNames(set)).toEqual([]);
    expect(Object.getOwnPropertySymbols(set)).toEqual([]);
    expect(Object.isFrozen(set)).toBe(true);
  });

  it("toArray returns a copy in canonical order; changing it changes nothing", () => {
    const set = new CapabilitySet(["files", "loop", "files"]);
    const listed = set.toArray();
    expect(listed).toEqual(["loop", "files"]);
    listed.push("policy");
    expect(set.has("policy")).toBe(false);
    expect(set.toArray()).toEqual(["loop", "files"]);
  });

  it("copies its input: the caller's collection cannot add a capability later", () => {
    const input = new Set<Capability>(["loop"]);
    const set = new CapabilitySet(input);
    input.add("policy");
    expect(set.has("policy")).toBe(false);
  });

  it("rejects an unknown capability", () => {
    expect(() => new CapabilitySet(["loop", "root" as Capability])).toThrow(
      new RangeError("Unknown capability: root"),
    );
  });

  it("has() is false for prototype names", () => {
    const set = new CapabilitySet(CAPABILITIES);
    for (const name of ["toString", "__proto__", "constructor"]) {
      expect(set.has(name as Capability)).toBe(false);
    }
  });
});

describe("profileForChapter", () => {
  it.each([
    [1, P01],
    [2, P02],
    [3, P03],
  ] as const)("chapter %i is the canonical object", (chapter, profile) => {
    expect(profileForChapter(chapter)).toBe(profile);
  });

  it.each([0, 5, 1.5, Number.NaN])("chapter %s is a RangeError", (chapter) => {
    expect(() => profileForChapter(chapter)).toThrow(
      new RangeError(`Unknown chapter: ${chapter}. Choose 1, 2, 3 or 4.`),
    );
  });
});

describe("isCanonicalProfile", () => {
  it("accepts the canonical objects", () => {
    expect(PROFILES.every((profile) => isCanonicalProfile(profile))).toBe(true);
  });

  it.each<[string, unknown]>([
    ["a spread copy of P03", { ...P03 }],
    ["P01 with P03's capabilities", { ...P01, capabilities: P03.capabilities }],
    [
      "a look-alike with every capability",
      Object.freeze({
        id: "P01",
        chapter: 1,
        title: P01.title,
        capabilities: new CapabilitySet(CAPABILITIES),
      }),
    ],
    ["an object on the same prototype", Object.create(P01) as unknown],
    ["null", null],
  ])("rejects %s", (_label, candidate) => {
    expect(isCanonicalProfile(candidate)).toBe(false);
  });
});
