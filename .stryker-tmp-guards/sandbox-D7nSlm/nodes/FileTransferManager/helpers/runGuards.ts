/**
 * The Guards of Run From Dry Run (docs/operations.md › Job: Run From Dry Run): limits the workflow sets on what
 * a dry run may become for real, whoever made the dry run (a person, or a model through the tool variant).
 * Allowed Transfer Types, Allowed Conflict Handling, Allowed Target Storage IDs and Max Dry Run Age; a guard
 * not added restricts nothing. The reading is checked before any request; the dry run is checked after its GET
 * and before any request that could start a job, as Max Estimated Cost (costGuard.ts) is. A guard (or Max
 * Estimated Cost) filled by `$fromAI()` is refused: a model must not set its own limits.
 */
// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isUuid } from '../api/ids';
import type { ConflictHandling, Job, TransferType } from '../api/types';
import { CONFLICT_HANDLINGS, TRANSFER_TYPES } from '../api/types';
import { operationError } from '../execution/operationError';
import { holdsFromAi, isToolUse } from '../execution/toolUse';
import { invalidInput, shown } from './validate';
const TRANSFER_TYPES_FIELD = stryMutAct_9fa48("0") ? "" : (stryCov_9fa48("0"), 'Allowed Transfer Types');
const CONFLICT_FIELD = stryMutAct_9fa48("1") ? "" : (stryCov_9fa48("1"), 'Allowed Conflict Handling');
const TARGETS_FIELD = stryMutAct_9fa48("2") ? "" : (stryCov_9fa48("2"), 'Allowed Target Storage IDs');
const AGE_FIELD = stryMutAct_9fa48("3") ? "" : (stryCov_9fa48("3"), 'Max Dry Run Age (Minutes)');

/** How far a dry run's finishedAt may lie ahead of this machine's clock (clock skew) and count as just now. */
export const FUTURE_TOLERANCE_MS = stryMutAct_9fa48("4") ? 2 / 60_000 : (stryCov_9fa48("4"), 2 * 60_000);
export const runGuardProperties: INodeProperties[] = stryMutAct_9fa48("5") ? [] : (stryCov_9fa48("5"), [stryMutAct_9fa48("6") ? {} : (stryCov_9fa48("6"), {
  displayName: stryMutAct_9fa48("7") ? "" : (stryCov_9fa48("7"), 'Guards'),
  name: stryMutAct_9fa48("8") ? "" : (stryCov_9fa48("8"), 'guards'),
  type: stryMutAct_9fa48("9") ? "" : (stryCov_9fa48("9"), 'collection'),
  placeholder: stryMutAct_9fa48("10") ? "" : (stryCov_9fa48("10"), 'Add Guard'),
  default: {},
  description: stryMutAct_9fa48("11") ? "" : (stryCov_9fa48("11"), 'Limits on what the dry run may become for real, whoever made it (as an AI tool, the model picks the dry run). A dry run outside them starts no job and the item fails. A guard not added restricts nothing.'),
  options: stryMutAct_9fa48("12") ? [] : (stryCov_9fa48("12"), [stryMutAct_9fa48("13") ? {} : (stryCov_9fa48("13"), {
    displayName: CONFLICT_FIELD,
    name: stryMutAct_9fa48("14") ? "" : (stryCov_9fa48("14"), 'allowedConflictHandling'),
    type: stryMutAct_9fa48("15") ? "" : (stryCov_9fa48("15"), 'multiOptions'),
    options: stryMutAct_9fa48("16") ? [] : (stryCov_9fa48("16"), [stryMutAct_9fa48("17") ? {} : (stryCov_9fa48("17"), {
      name: stryMutAct_9fa48("18") ? "" : (stryCov_9fa48("18"), 'Overwrite'),
      value: stryMutAct_9fa48("19") ? "" : (stryCov_9fa48("19"), 'overwrite'),
      description: stryMutAct_9fa48("20") ? "" : (stryCov_9fa48("20"), 'Existing target files are replaced')
    }), stryMutAct_9fa48("21") ? {} : (stryCov_9fa48("21"), {
      name: stryMutAct_9fa48("22") ? "" : (stryCov_9fa48("22"), 'Rename'),
      value: stryMutAct_9fa48("23") ? "" : (stryCov_9fa48("23"), 'rename'),
      description: stryMutAct_9fa48("24") ? "" : (stryCov_9fa48("24"), 'Both files are kept; the incoming one is renamed')
    }), stryMutAct_9fa48("25") ? {} : (stryCov_9fa48("25"), {
      name: stryMutAct_9fa48("26") ? "" : (stryCov_9fa48("26"), 'Skip'),
      value: stryMutAct_9fa48("27") ? "" : (stryCov_9fa48("27"), 'skip'),
      description: stryMutAct_9fa48("28") ? "" : (stryCov_9fa48("28"), 'Existing target files are left as they are')
    })]),
    default: stryMutAct_9fa48("29") ? [] : (stryCov_9fa48("29"), [stryMutAct_9fa48("30") ? "" : (stryCov_9fa48("30"), 'skip'), stryMutAct_9fa48("31") ? "" : (stryCov_9fa48("31"), 'rename')]),
    description: stryMutAct_9fa48("32") ? "" : (stryCov_9fa48("32"), "The conflict handling the dry run may have. A sync dry run without conflict handling passes (Allowed Transfer Types governs sync); one with a stored value is checked like any other.")
  }), stryMutAct_9fa48("33") ? {} : (stryCov_9fa48("33"), {
    displayName: TARGETS_FIELD,
    name: stryMutAct_9fa48("34") ? "" : (stryCov_9fa48("34"), 'allowedTargetStorageIds'),
    type: stryMutAct_9fa48("35") ? "" : (stryCov_9fa48("35"), 'string'),
    default: stryMutAct_9fa48("36") ? "Stryker was here!" : (stryCov_9fa48("36"), ''),
    placeholder: stryMutAct_9fa48("37") ? "" : (stryCov_9fa48("37"), 'e.g. 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10, 9c1d…'),
    description: stryMutAct_9fa48("38") ? "" : (stryCov_9fa48("38"), "Storage UUIDs the dry run's target may be, separated by commas. Empty: any target.")
  }), stryMutAct_9fa48("39") ? {} : (stryCov_9fa48("39"), {
    displayName: TRANSFER_TYPES_FIELD,
    name: stryMutAct_9fa48("40") ? "" : (stryCov_9fa48("40"), 'allowedTransferTypes'),
    type: stryMutAct_9fa48("41") ? "" : (stryCov_9fa48("41"), 'multiOptions'),
    options: stryMutAct_9fa48("42") ? [] : (stryCov_9fa48("42"), [stryMutAct_9fa48("43") ? {} : (stryCov_9fa48("43"), {
      name: stryMutAct_9fa48("44") ? "" : (stryCov_9fa48("44"), 'Copy'),
      value: stryMutAct_9fa48("45") ? "" : (stryCov_9fa48("45"), 'copy'),
      description: stryMutAct_9fa48("46") ? "" : (stryCov_9fa48("46"), 'The source is kept intact')
    }), stryMutAct_9fa48("47") ? {} : (stryCov_9fa48("47"), {
      name: stryMutAct_9fa48("48") ? "" : (stryCov_9fa48("48"), 'Move'),
      value: stryMutAct_9fa48("49") ? "" : (stryCov_9fa48("49"), 'move'),
      description: stryMutAct_9fa48("50") ? "" : (stryCov_9fa48("50"), 'Deletes the source files after the transfer')
    }), stryMutAct_9fa48("51") ? {} : (stryCov_9fa48("51"), {
      name: stryMutAct_9fa48("52") ? "" : (stryCov_9fa48("52"), 'Sync'),
      value: stryMutAct_9fa48("53") ? "" : (stryCov_9fa48("53"), 'sync'),
      description: stryMutAct_9fa48("54") ? "" : (stryCov_9fa48("54"), 'Deletes target files that are not on the source')
    })]),
    default: stryMutAct_9fa48("55") ? [] : (stryCov_9fa48("55"), [stryMutAct_9fa48("56") ? "" : (stryCov_9fa48("56"), 'copy')]),
    description: stryMutAct_9fa48("57") ? "" : (stryCov_9fa48("57"), 'The transfer types the dry run may have')
  }), stryMutAct_9fa48("58") ? {} : (stryCov_9fa48("58"), {
    displayName: AGE_FIELD,
    name: stryMutAct_9fa48("59") ? "" : (stryCov_9fa48("59"), 'maxDryRunAgeMinutes'),
    type: stryMutAct_9fa48("60") ? "" : (stryCov_9fa48("60"), 'number'),
    typeOptions: stryMutAct_9fa48("61") ? {} : (stryCov_9fa48("61"), {
      minValue: 1,
      numberPrecision: 0
    }),
    default: 60,
    description: stryMutAct_9fa48("62") ? "" : (stryCov_9fa48("62"), "The most whole minutes since the dry run finished (its stats.finishedAt). An older estimate may no longer fit the files.")
  })])
})]);

/** The guards of one item; a guard not added is undefined. */
export interface RunGuards {
  transferTypes?: TransferType[];
  conflictHandling?: ConflictHandling[];
  /** Lower case. */
  targetStorageIds?: string[];
  maxAgeMinutes?: number;
}

/** An input problem: the field as the error names it, what is wrong, how to fix it. */
export interface GuardInputProblem {
  field: string;
  problem: string;
  hint: string;
}
const guardField = stryMutAct_9fa48("63") ? () => undefined : (stryCov_9fa48("63"), (() => {
  const guardField = (name: string) => stryMutAct_9fa48("64") ? `` : (stryCov_9fa48("64"), `"Guards → ${name}"`);
  return guardField;
})());
const listed = stryMutAct_9fa48("65") ? () => undefined : (stryCov_9fa48("65"), (() => {
  const listed = (values: readonly string[]) => values.join(stryMutAct_9fa48("66") ? "" : (stryCov_9fa48("66"), ', '));
  return listed;
})());
function selection<T extends string>(raw: unknown, allowed: readonly T[], name: string, what: string): T[] | GuardInputProblem {
  if (stryMutAct_9fa48("67")) {
    {}
  } else {
    stryCov_9fa48("67");
    const values = Array.isArray(raw) ? raw : (stryMutAct_9fa48("70") ? typeof raw !== 'string' : stryMutAct_9fa48("69") ? false : stryMutAct_9fa48("68") ? true : (stryCov_9fa48("68", "69", "70"), typeof raw === (stryMutAct_9fa48("71") ? "" : (stryCov_9fa48("71"), 'string')))) ? raw.split(stryMutAct_9fa48("72") ? "" : (stryCov_9fa48("72"), ',')) : undefined;
    const hint = stryMutAct_9fa48("73") ? `` : (stryCov_9fa48("73"), `Pick at least one ${what}, or remove the guard for no restriction.`);
    if (stryMutAct_9fa48("76") ? values !== undefined : stryMutAct_9fa48("75") ? false : stryMutAct_9fa48("74") ? true : (stryCov_9fa48("74", "75", "76"), values === undefined)) {
      if (stryMutAct_9fa48("77")) {
        {}
      } else {
        stryCov_9fa48("77");
        return stryMutAct_9fa48("78") ? {} : (stryCov_9fa48("78"), {
          field: guardField(name),
          problem: stryMutAct_9fa48("79") ? `` : (stryCov_9fa48("79"), `must be a list of ${listed(allowed)}, got ${shown(raw)}`),
          hint
        });
      }
    }
    const picked = stryMutAct_9fa48("80") ? values.map(value => typeof value === 'string' ? value.trim().toLowerCase() : value) : (stryCov_9fa48("80"), values.map(stryMutAct_9fa48("81") ? () => undefined : (stryCov_9fa48("81"), value => (stryMutAct_9fa48("84") ? typeof value !== 'string' : stryMutAct_9fa48("83") ? false : stryMutAct_9fa48("82") ? true : (stryCov_9fa48("82", "83", "84"), typeof value === (stryMutAct_9fa48("85") ? "" : (stryCov_9fa48("85"), 'string')))) ? stryMutAct_9fa48("87") ? value.toLowerCase() : stryMutAct_9fa48("86") ? value.trim().toUpperCase() : (stryCov_9fa48("86", "87"), value.trim().toLowerCase()) : value)).filter(stryMutAct_9fa48("88") ? () => undefined : (stryCov_9fa48("88"), value => stryMutAct_9fa48("91") ? value === '' : stryMutAct_9fa48("90") ? false : stryMutAct_9fa48("89") ? true : (stryCov_9fa48("89", "90", "91"), value !== (stryMutAct_9fa48("92") ? "Stryker was here!" : (stryCov_9fa48("92"), ''))))));
    if (stryMutAct_9fa48("95") ? picked.length !== 0 : stryMutAct_9fa48("94") ? false : stryMutAct_9fa48("93") ? true : (stryCov_9fa48("93", "94", "95"), picked.length === 0)) return stryMutAct_9fa48("96") ? {} : (stryCov_9fa48("96"), {
      field: guardField(name),
      problem: stryMutAct_9fa48("97") ? `` : (stryCov_9fa48("97"), `must hold at least one ${what}`),
      hint
    });
    const wrong = picked.find(stryMutAct_9fa48("98") ? () => undefined : (stryCov_9fa48("98"), value => stryMutAct_9fa48("99") ? (allowed as readonly unknown[]).includes(value) : (stryCov_9fa48("99"), !(allowed as readonly unknown[]).includes(value))));
    if (stryMutAct_9fa48("102") ? wrong === undefined : stryMutAct_9fa48("101") ? false : stryMutAct_9fa48("100") ? true : (stryCov_9fa48("100", "101", "102"), wrong !== undefined)) {
      if (stryMutAct_9fa48("103")) {
        {}
      } else {
        stryCov_9fa48("103");
        return stryMutAct_9fa48("104") ? {} : (stryCov_9fa48("104"), {
          field: guardField(name),
          problem: stryMutAct_9fa48("105") ? `` : (stryCov_9fa48("105"), `must hold only ${listed(allowed)}, got ${shown(wrong)}`),
          hint
        });
      }
    }
    return stryMutAct_9fa48("106") ? [] : (stryCov_9fa48("106"), [...new Set(picked as T[])]);
  }
}
function storageIds(raw: unknown): string[] | GuardInputProblem | undefined {
  if (stryMutAct_9fa48("107")) {
    {}
  } else {
    stryCov_9fa48("107");
    const text = Array.isArray(raw) ? raw.join(stryMutAct_9fa48("108") ? "" : (stryCov_9fa48("108"), ',')) : (stryMutAct_9fa48("111") ? typeof raw !== 'string' : stryMutAct_9fa48("110") ? false : stryMutAct_9fa48("109") ? true : (stryCov_9fa48("109", "110", "111"), typeof raw === (stryMutAct_9fa48("112") ? "" : (stryCov_9fa48("112"), 'string')))) ? raw : undefined;
    const hint = stryMutAct_9fa48("113") ? "" : (stryCov_9fa48("113"), "Storage UUIDs separated by commas, e.g. 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10 (Storage › Get Many lists them). Leave it empty, or remove the guard, for any target.");
    if (stryMutAct_9fa48("116") ? text !== undefined : stryMutAct_9fa48("115") ? false : stryMutAct_9fa48("114") ? true : (stryCov_9fa48("114", "115", "116"), text === undefined)) {
      if (stryMutAct_9fa48("117")) {
        {}
      } else {
        stryCov_9fa48("117");
        return stryMutAct_9fa48("118") ? {} : (stryCov_9fa48("118"), {
          field: guardField(TARGETS_FIELD),
          problem: stryMutAct_9fa48("119") ? `` : (stryCov_9fa48("119"), `must be storage UUIDs separated by commas, got ${shown(raw)}`),
          hint
        });
      }
    }
    const ids = stryMutAct_9fa48("120") ? text.split(',').map(id => id.trim()) : (stryCov_9fa48("120"), text.split(stryMutAct_9fa48("121") ? "" : (stryCov_9fa48("121"), ',')).map(stryMutAct_9fa48("122") ? () => undefined : (stryCov_9fa48("122"), id => stryMutAct_9fa48("123") ? id : (stryCov_9fa48("123"), id.trim()))).filter(stryMutAct_9fa48("124") ? () => undefined : (stryCov_9fa48("124"), id => stryMutAct_9fa48("127") ? id === '' : stryMutAct_9fa48("126") ? false : stryMutAct_9fa48("125") ? true : (stryCov_9fa48("125", "126", "127"), id !== (stryMutAct_9fa48("128") ? "Stryker was here!" : (stryCov_9fa48("128"), ''))))));
    if (stryMutAct_9fa48("131") ? ids.length !== 0 : stryMutAct_9fa48("130") ? false : stryMutAct_9fa48("129") ? true : (stryCov_9fa48("129", "130", "131"), ids.length === 0)) return undefined;
    const wrong = ids.find(stryMutAct_9fa48("132") ? () => undefined : (stryCov_9fa48("132"), id => stryMutAct_9fa48("133") ? isUuid(id) : (stryCov_9fa48("133"), !isUuid(id))));
    if (stryMutAct_9fa48("136") ? wrong === undefined : stryMutAct_9fa48("135") ? false : stryMutAct_9fa48("134") ? true : (stryCov_9fa48("134", "135", "136"), wrong !== undefined)) {
      if (stryMutAct_9fa48("137")) {
        {}
      } else {
        stryCov_9fa48("137");
        return stryMutAct_9fa48("138") ? {} : (stryCov_9fa48("138"), {
          field: guardField(TARGETS_FIELD),
          problem: stryMutAct_9fa48("139") ? `` : (stryCov_9fa48("139"), `must be storage UUIDs separated by commas, got ${shown(wrong)}`),
          hint
        });
      }
    }
    return stryMutAct_9fa48("140") ? [] : (stryCov_9fa48("140"), [...new Set(ids.map(stryMutAct_9fa48("141") ? () => undefined : (stryCov_9fa48("141"), id => stryMutAct_9fa48("142") ? id.toUpperCase() : (stryCov_9fa48("142"), id.toLowerCase()))))]);
  }
}
function maxAge(raw: unknown): number | GuardInputProblem {
  if (stryMutAct_9fa48("143")) {
    {}
  } else {
    stryCov_9fa48("143");
    const value = (stryMutAct_9fa48("146") ? typeof raw === 'string' || raw.trim() !== '' : stryMutAct_9fa48("145") ? false : stryMutAct_9fa48("144") ? true : (stryCov_9fa48("144", "145", "146"), (stryMutAct_9fa48("148") ? typeof raw !== 'string' : stryMutAct_9fa48("147") ? true : (stryCov_9fa48("147", "148"), typeof raw === (stryMutAct_9fa48("149") ? "" : (stryCov_9fa48("149"), 'string')))) && (stryMutAct_9fa48("151") ? raw.trim() === '' : stryMutAct_9fa48("150") ? true : (stryCov_9fa48("150", "151"), (stryMutAct_9fa48("152") ? raw : (stryCov_9fa48("152"), raw.trim())) !== (stryMutAct_9fa48("153") ? "Stryker was here!" : (stryCov_9fa48("153"), '')))))) ? Number(stryMutAct_9fa48("154") ? raw : (stryCov_9fa48("154"), raw.trim())) : raw;
    if (stryMutAct_9fa48("157") ? (typeof value !== 'number' || !Number.isInteger(value)) && value < 1 : stryMutAct_9fa48("156") ? false : stryMutAct_9fa48("155") ? true : (stryCov_9fa48("155", "156", "157"), (stryMutAct_9fa48("159") ? typeof value !== 'number' && !Number.isInteger(value) : stryMutAct_9fa48("158") ? false : (stryCov_9fa48("158", "159"), (stryMutAct_9fa48("161") ? typeof value === 'number' : stryMutAct_9fa48("160") ? false : (stryCov_9fa48("160", "161"), typeof value !== (stryMutAct_9fa48("162") ? "" : (stryCov_9fa48("162"), 'number')))) || (stryMutAct_9fa48("163") ? Number.isInteger(value) : (stryCov_9fa48("163"), !Number.isInteger(value))))) || (stryMutAct_9fa48("166") ? value >= 1 : stryMutAct_9fa48("165") ? value <= 1 : stryMutAct_9fa48("164") ? false : (stryCov_9fa48("164", "165", "166"), value < 1)))) {
      if (stryMutAct_9fa48("167")) {
        {}
      } else {
        stryCov_9fa48("167");
        return stryMutAct_9fa48("168") ? {} : (stryCov_9fa48("168"), {
          field: guardField(AGE_FIELD),
          problem: stryMutAct_9fa48("169") ? `` : (stryCov_9fa48("169"), `must be a whole number of minutes, at least 1, got ${shown(raw)}`),
          hint: stryMutAct_9fa48("170") ? "" : (stryCov_9fa48("170"), 'Give the most minutes since the dry run finished, e.g. 60, or remove the guard for no maximum age.')
        });
      }
    }
    return value;
  }
}
const isProblem = stryMutAct_9fa48("171") ? () => undefined : (stryCov_9fa48("171"), (() => {
  const isProblem = (value: unknown): value is GuardInputProblem => stryMutAct_9fa48("174") ? value !== null && typeof value === 'object' && !Array.isArray(value) || 'problem' in value : stryMutAct_9fa48("173") ? false : stryMutAct_9fa48("172") ? true : (stryCov_9fa48("172", "173", "174"), (stryMutAct_9fa48("176") ? value !== null && typeof value === 'object' || !Array.isArray(value) : stryMutAct_9fa48("175") ? true : (stryCov_9fa48("175", "176"), (stryMutAct_9fa48("178") ? value !== null || typeof value === 'object' : stryMutAct_9fa48("177") ? true : (stryCov_9fa48("177", "178"), (stryMutAct_9fa48("180") ? value === null : stryMutAct_9fa48("179") ? true : (stryCov_9fa48("179", "180"), value !== null)) && (stryMutAct_9fa48("182") ? typeof value !== 'object' : stryMutAct_9fa48("181") ? true : (stryCov_9fa48("181", "182"), typeof value === (stryMutAct_9fa48("183") ? "" : (stryCov_9fa48("183"), 'object')))))) && (stryMutAct_9fa48("184") ? Array.isArray(value) : (stryCov_9fa48("184"), !Array.isArray(value))))) && (stryMutAct_9fa48("185") ? "" : (stryCov_9fa48("185"), 'problem')) in value);
  return isProblem;
})());

/** The guards in a Guards collection's value, or the first input problem. Pure. */
export function parseRunGuards(raw: unknown): RunGuards | GuardInputProblem {
  if (stryMutAct_9fa48("186")) {
    {}
  } else {
    stryCov_9fa48("186");
    if (stryMutAct_9fa48("189") ? raw === undefined && raw === null : stryMutAct_9fa48("188") ? false : stryMutAct_9fa48("187") ? true : (stryCov_9fa48("187", "188", "189"), (stryMutAct_9fa48("191") ? raw !== undefined : stryMutAct_9fa48("190") ? false : (stryCov_9fa48("190", "191"), raw === undefined)) || (stryMutAct_9fa48("193") ? raw !== null : stryMutAct_9fa48("192") ? false : (stryCov_9fa48("192", "193"), raw === null)))) return {};
    if (stryMutAct_9fa48("196") ? typeof raw !== 'object' && Array.isArray(raw) : stryMutAct_9fa48("195") ? false : stryMutAct_9fa48("194") ? true : (stryCov_9fa48("194", "195", "196"), (stryMutAct_9fa48("198") ? typeof raw === 'object' : stryMutAct_9fa48("197") ? false : (stryCov_9fa48("197", "198"), typeof raw !== (stryMutAct_9fa48("199") ? "" : (stryCov_9fa48("199"), 'object')))) || Array.isArray(raw))) {
      if (stryMutAct_9fa48("200")) {
        {}
      } else {
        stryCov_9fa48("200");
        return stryMutAct_9fa48("201") ? {} : (stryCov_9fa48("201"), {
          field: stryMutAct_9fa48("202") ? "" : (stryCov_9fa48("202"), '"Guards"'),
          problem: stryMutAct_9fa48("203") ? `` : (stryCov_9fa48("203"), `must be a collection of guards, got ${shown(raw)}`),
          hint: stryMutAct_9fa48("204") ? "" : (stryCov_9fa48("204"), 'Add guards with Add Guard.')
        });
      }
    }
    const value = raw as Record<string, unknown>;
    const guards: RunGuards = {};
    if (stryMutAct_9fa48("207") ? value.allowedTransferTypes === undefined : stryMutAct_9fa48("206") ? false : stryMutAct_9fa48("205") ? true : (stryCov_9fa48("205", "206", "207"), value.allowedTransferTypes !== undefined)) {
      if (stryMutAct_9fa48("208")) {
        {}
      } else {
        stryCov_9fa48("208");
        const types = selection(value.allowedTransferTypes, TRANSFER_TYPES, TRANSFER_TYPES_FIELD, stryMutAct_9fa48("209") ? "" : (stryCov_9fa48("209"), 'transfer type'));
        if (stryMutAct_9fa48("211") ? false : stryMutAct_9fa48("210") ? true : (stryCov_9fa48("210", "211"), isProblem(types))) return types;
        guards.transferTypes = types;
      }
    }
    if (stryMutAct_9fa48("214") ? value.allowedConflictHandling === undefined : stryMutAct_9fa48("213") ? false : stryMutAct_9fa48("212") ? true : (stryCov_9fa48("212", "213", "214"), value.allowedConflictHandling !== undefined)) {
      if (stryMutAct_9fa48("215")) {
        {}
      } else {
        stryCov_9fa48("215");
        const handling = selection(value.allowedConflictHandling, CONFLICT_HANDLINGS, CONFLICT_FIELD, stryMutAct_9fa48("216") ? "" : (stryCov_9fa48("216"), 'conflict handling'));
        if (stryMutAct_9fa48("218") ? false : stryMutAct_9fa48("217") ? true : (stryCov_9fa48("217", "218"), isProblem(handling))) return handling;
        guards.conflictHandling = handling;
      }
    }
    if (stryMutAct_9fa48("221") ? value.allowedTargetStorageIds === undefined : stryMutAct_9fa48("220") ? false : stryMutAct_9fa48("219") ? true : (stryCov_9fa48("219", "220", "221"), value.allowedTargetStorageIds !== undefined)) {
      if (stryMutAct_9fa48("222")) {
        {}
      } else {
        stryCov_9fa48("222");
        const ids = storageIds(value.allowedTargetStorageIds);
        if (stryMutAct_9fa48("224") ? false : stryMutAct_9fa48("223") ? true : (stryCov_9fa48("223", "224"), isProblem(ids))) return ids;
        if (stryMutAct_9fa48("226") ? false : stryMutAct_9fa48("225") ? true : (stryCov_9fa48("225", "226"), ids)) guards.targetStorageIds = ids;
      }
    }
    if (stryMutAct_9fa48("229") ? value.maxDryRunAgeMinutes === undefined : stryMutAct_9fa48("228") ? false : stryMutAct_9fa48("227") ? true : (stryCov_9fa48("227", "228", "229"), value.maxDryRunAgeMinutes !== undefined)) {
      if (stryMutAct_9fa48("230")) {
        {}
      } else {
        stryCov_9fa48("230");
        const age = maxAge(value.maxDryRunAgeMinutes);
        if (stryMutAct_9fa48("232") ? false : stryMutAct_9fa48("231") ? true : (stryCov_9fa48("231", "232"), isProblem(age))) return age;
        guards.maxAgeMinutes = age;
      }
    }
    return guards;
  }
}

/** The limits a model must not set: the node parameters (dotted paths) and the fields the error names. */
const LIMITS: ReadonlyArray<[string, string]> = stryMutAct_9fa48("233") ? [] : (stryCov_9fa48("233"), [stryMutAct_9fa48("234") ? [] : (stryCov_9fa48("234"), [stryMutAct_9fa48("235") ? "" : (stryCov_9fa48("235"), 'maxEstimatedCost'), stryMutAct_9fa48("236") ? "" : (stryCov_9fa48("236"), '"Max Estimated Cost"')]), stryMutAct_9fa48("237") ? [] : (stryCov_9fa48("237"), [stryMutAct_9fa48("238") ? "" : (stryCov_9fa48("238"), 'maxEstimatedCostCurrency'), stryMutAct_9fa48("239") ? "" : (stryCov_9fa48("239"), '"Max Estimated Cost Currency"')]), stryMutAct_9fa48("240") ? [] : (stryCov_9fa48("240"), [stryMutAct_9fa48("241") ? "" : (stryCov_9fa48("241"), 'guards'), stryMutAct_9fa48("242") ? "" : (stryCov_9fa48("242"), '"Guards"')]), stryMutAct_9fa48("243") ? [] : (stryCov_9fa48("243"), [stryMutAct_9fa48("244") ? "" : (stryCov_9fa48("244"), 'guards.allowedTransferTypes'), guardField(TRANSFER_TYPES_FIELD)]), stryMutAct_9fa48("245") ? [] : (stryCov_9fa48("245"), [stryMutAct_9fa48("246") ? "" : (stryCov_9fa48("246"), 'guards.allowedConflictHandling'), guardField(CONFLICT_FIELD)]), stryMutAct_9fa48("247") ? [] : (stryCov_9fa48("247"), [stryMutAct_9fa48("248") ? "" : (stryCov_9fa48("248"), 'guards.allowedTargetStorageIds'), guardField(TARGETS_FIELD)]), stryMutAct_9fa48("249") ? [] : (stryCov_9fa48("249"), [stryMutAct_9fa48("250") ? "" : (stryCov_9fa48("250"), 'guards.maxDryRunAgeMinutes'), guardField(AGE_FIELD)])]);

/** The field of the first limit whose raw node parameter calls `$fromAI()`, or undefined. Pure. */
export function limitSetByModel(parameters: unknown): string | undefined {
  if (stryMutAct_9fa48("251")) {
    {}
  } else {
    stryCov_9fa48("251");
    const at = stryMutAct_9fa48("252") ? () => undefined : (stryCov_9fa48("252"), (() => {
      const at = (path: string): unknown => path.split(stryMutAct_9fa48("253") ? "" : (stryCov_9fa48("253"), '.')).reduce<unknown>(stryMutAct_9fa48("254") ? () => undefined : (stryCov_9fa48("254"), (value, part) => (stryMutAct_9fa48("257") ? value !== null || typeof value === 'object' : stryMutAct_9fa48("256") ? false : stryMutAct_9fa48("255") ? true : (stryCov_9fa48("255", "256", "257"), (stryMutAct_9fa48("259") ? value === null : stryMutAct_9fa48("258") ? true : (stryCov_9fa48("258", "259"), value !== null)) && (stryMutAct_9fa48("261") ? typeof value !== 'object' : stryMutAct_9fa48("260") ? true : (stryCov_9fa48("260", "261"), typeof value === (stryMutAct_9fa48("262") ? "" : (stryCov_9fa48("262"), 'object')))))) ? (value as Record<string, unknown>)[part] : undefined), parameters);
      return at;
    })());
    // The most precise name first: a guard inside the collection before the collection as a whole.
    const found = stryMutAct_9fa48("263") ? [...LIMITS].find(([path]) => holdsFromAi(at(path))) : (stryCov_9fa48("263"), (stryMutAct_9fa48("264") ? [] : (stryCov_9fa48("264"), [...LIMITS])).reverse().find(stryMutAct_9fa48("265") ? () => undefined : (stryCov_9fa48("265"), ([path]) => holdsFromAi(at(path)))));
    return stryMutAct_9fa48("266") ? found[1] : (stryCov_9fa48("266"), found?.[1]);
  }
}

/**
 * The item's guards. Input errors name the field and the item, before any request: a limit (a guard, Max
 * Estimated Cost) filled by `$fromAI()`, an empty selection, a target that is not a UUID, an age below 1.
 */
export function readRunGuards(ctx: IExecuteFunctions, itemIndex: number): RunGuards {
  if (stryMutAct_9fa48("267")) {
    {}
  } else {
    stryCov_9fa48("267");
    const byModel = limitSetByModel(ctx.getNode().parameters);
    if (stryMutAct_9fa48("269") ? false : stryMutAct_9fa48("268") ? true : (stryCov_9fa48("268", "269"), byModel)) {
      if (stryMutAct_9fa48("270")) {
        {}
      } else {
        stryCov_9fa48("270");
        throw invalidInput(ctx, itemIndex, byModel, stryMutAct_9fa48("271") ? "" : (stryCov_9fa48("271"), 'is filled by $fromAI(): a limit on what a dry run may start must not be set by the model'), stryMutAct_9fa48("272") ? "" : (stryCov_9fa48("272"), 'Guards and Max Estimated Cost are the workflow\'s limits on what a tool call may start. Give them fixed values, or expressions that do not call $fromAI().'));
      }
    }
    const parsed = parseRunGuards(ctx.getNodeParameter('guards', itemIndex, {}) as unknown);
    if (stryMutAct_9fa48("274") ? false : stryMutAct_9fa48("273") ? true : (stryCov_9fa48("273", "274"), isProblem(parsed))) throw invalidInput(ctx, itemIndex, parsed.field, parsed.problem, parsed.hint);
    return parsed;
  }
}
const CONFLICT_WORDS: Readonly<Record<ConflictHandling, string>> = stryMutAct_9fa48("275") ? {} : (stryCov_9fa48("275"), {
  overwrite: stryMutAct_9fa48("276") ? "" : (stryCov_9fa48("276"), 'overwrites files on the target'),
  rename: stryMutAct_9fa48("277") ? "" : (stryCov_9fa48("277"), 'renames files that exist on the target'),
  skip: stryMutAct_9fa48("278") ? "" : (stryCov_9fa48("278"), 'skips files that exist on the target')
});

/** Why a dry run is refused: what it has (after "dry run <id> "), the guard, and how to fit it. */
export interface GuardRefusal {
  problem: string;
  guard: string;
  /** For a person: the new dry run that fits. */
  fit: string;
  /** For a model: the dry run it may start instead. */
  toolFit: string;
}

/** An ISO 8601 timestamp with a date, a time and a zone. */
const TIMESTAMP = stryMutAct_9fa48("302") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\D{2})$/i : stryMutAct_9fa48("301") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d)$/i : stryMutAct_9fa48("300") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i : stryMutAct_9fa48("299") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\D{2}:?\d{2})$/i : stryMutAct_9fa48("298") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d:?\d{2})$/i : stryMutAct_9fa48("297") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[^+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("296") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\D+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("295") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("294") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+))?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("293") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\D{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("292") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("291") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("290") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\D{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("289") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("288") ? /^\d{4}-\d{2}-\d{2}T\D{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("287") ? /^\d{4}-\d{2}-\d{2}T\d:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("286") ? /^\d{4}-\d{2}-\D{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("285") ? /^\d{4}-\d{2}-\dT\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("284") ? /^\d{4}-\D{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("283") ? /^\d{4}-\d-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("282") ? /^\D{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("281") ? /^\d-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : stryMutAct_9fa48("280") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})/i : stryMutAct_9fa48("279") ? /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i : (stryCov_9fa48("279", "280", "281", "282", "283", "284", "285", "286", "287", "288", "289", "290", "291", "292", "293", "294", "295", "296", "297", "298", "299", "300", "301", "302"), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i);

/**
 * The first guard the dry run breaks, or undefined when it passes them all. Pure: `now` is this machine's
 * clock in milliseconds. Checked in the order of the fields: transfer type, conflict handling, target, age.
 */
export function guardRefusal(dryRun: Job, guards: RunGuards, now: number): GuardRefusal | undefined {
  if (stryMutAct_9fa48("303")) {
    {}
  } else {
    stryCov_9fa48("303");
    const a = dryRun.attributes;
    const transferType: unknown = a.transferType;
    if (stryMutAct_9fa48("306") ? guards.transferTypes || !(guards.transferTypes as readonly unknown[]).includes(transferType) : stryMutAct_9fa48("305") ? false : stryMutAct_9fa48("304") ? true : (stryCov_9fa48("304", "305", "306"), guards.transferTypes && (stryMutAct_9fa48("307") ? (guards.transferTypes as readonly unknown[]).includes(transferType) : (stryCov_9fa48("307"), !(guards.transferTypes as readonly unknown[]).includes(transferType))))) {
      if (stryMutAct_9fa48("308")) {
        {}
      } else {
        stryCov_9fa48("308");
        const allowed = listed(guards.transferTypes);
        return stryMutAct_9fa48("309") ? {} : (stryCov_9fa48("309"), {
          problem: stryMutAct_9fa48("310") ? `` : (stryCov_9fa48("310"), `is a ${(stryMutAct_9fa48("313") ? typeof transferType !== 'string' : stryMutAct_9fa48("312") ? false : stryMutAct_9fa48("311") ? true : (stryCov_9fa48("311", "312", "313"), typeof transferType === (stryMutAct_9fa48("314") ? "" : (stryCov_9fa48("314"), 'string')))) ? transferType : shown(transferType)}, and this workflow allows only ${allowed}`),
          guard: TRANSFER_TYPES_FIELD,
          fit: stryMutAct_9fa48("315") ? `` : (stryCov_9fa48("315"), `a new dry run of a transfer type it allows (${allowed})`),
          toolFit: stryMutAct_9fa48("316") ? `` : (stryCov_9fa48("316"), `start a dry run of a transfer type it allows (${allowed})`)
        });
      }
    }
    const conflict: unknown = a.conflictHandling;
    const syncWithout = stryMutAct_9fa48("319") ? transferType === 'sync' || conflict === null || conflict === undefined : stryMutAct_9fa48("318") ? false : stryMutAct_9fa48("317") ? true : (stryCov_9fa48("317", "318", "319"), (stryMutAct_9fa48("321") ? transferType !== 'sync' : stryMutAct_9fa48("320") ? true : (stryCov_9fa48("320", "321"), transferType === (stryMutAct_9fa48("322") ? "" : (stryCov_9fa48("322"), 'sync')))) && (stryMutAct_9fa48("324") ? conflict === null && conflict === undefined : stryMutAct_9fa48("323") ? true : (stryCov_9fa48("323", "324"), (stryMutAct_9fa48("326") ? conflict !== null : stryMutAct_9fa48("325") ? false : (stryCov_9fa48("325", "326"), conflict === null)) || (stryMutAct_9fa48("328") ? conflict !== undefined : stryMutAct_9fa48("327") ? false : (stryCov_9fa48("327", "328"), conflict === undefined)))));
    if (stryMutAct_9fa48("331") ? guards.conflictHandling && !syncWithout || !(guards.conflictHandling as readonly unknown[]).includes(conflict) : stryMutAct_9fa48("330") ? false : stryMutAct_9fa48("329") ? true : (stryCov_9fa48("329", "330", "331"), (stryMutAct_9fa48("333") ? guards.conflictHandling || !syncWithout : stryMutAct_9fa48("332") ? true : (stryCov_9fa48("332", "333"), guards.conflictHandling && (stryMutAct_9fa48("334") ? syncWithout : (stryCov_9fa48("334"), !syncWithout)))) && (stryMutAct_9fa48("335") ? (guards.conflictHandling as readonly unknown[]).includes(conflict) : (stryCov_9fa48("335"), !(guards.conflictHandling as readonly unknown[]).includes(conflict))))) {
      if (stryMutAct_9fa48("336")) {
        {}
      } else {
        stryCov_9fa48("336");
        const allowed = listed(guards.conflictHandling);
        const has = (stryMutAct_9fa48("339") ? typeof conflict === 'string' || conflict in CONFLICT_WORDS : stryMutAct_9fa48("338") ? false : stryMutAct_9fa48("337") ? true : (stryCov_9fa48("337", "338", "339"), (stryMutAct_9fa48("341") ? typeof conflict !== 'string' : stryMutAct_9fa48("340") ? true : (stryCov_9fa48("340", "341"), typeof conflict === (stryMutAct_9fa48("342") ? "" : (stryCov_9fa48("342"), 'string')))) && conflict in CONFLICT_WORDS)) ? CONFLICT_WORDS[conflict as ConflictHandling] : (stryMutAct_9fa48("345") ? conflict === null && conflict === undefined : stryMutAct_9fa48("344") ? false : stryMutAct_9fa48("343") ? true : (stryCov_9fa48("343", "344", "345"), (stryMutAct_9fa48("347") ? conflict !== null : stryMutAct_9fa48("346") ? false : (stryCov_9fa48("346", "347"), conflict === null)) || (stryMutAct_9fa48("349") ? conflict !== undefined : stryMutAct_9fa48("348") ? false : (stryCov_9fa48("348", "349"), conflict === undefined)))) ? stryMutAct_9fa48("350") ? "" : (stryCov_9fa48("350"), 'has no conflict handling') : stryMutAct_9fa48("351") ? `` : (stryCov_9fa48("351"), `has the conflict handling ${shown(conflict)}`);
        return stryMutAct_9fa48("352") ? {} : (stryCov_9fa48("352"), {
          problem: stryMutAct_9fa48("353") ? `` : (stryCov_9fa48("353"), `${has}, and this workflow allows only ${allowed}`),
          guard: CONFLICT_FIELD,
          fit: stryMutAct_9fa48("354") ? `` : (stryCov_9fa48("354"), `a new dry run with a conflict handling it allows (${allowed})`),
          toolFit: stryMutAct_9fa48("355") ? `` : (stryCov_9fa48("355"), `start a dry run with a conflict handling it allows (${allowed})`)
        });
      }
    }
    const target: unknown = stryMutAct_9fa48("356") ? a.target.id : (stryCov_9fa48("356"), a.target?.id);
    if (stryMutAct_9fa48("359") ? guards.targetStorageIds || !(typeof target === 'string' && guards.targetStorageIds.includes(target.toLowerCase())) : stryMutAct_9fa48("358") ? false : stryMutAct_9fa48("357") ? true : (stryCov_9fa48("357", "358", "359"), guards.targetStorageIds && (stryMutAct_9fa48("360") ? typeof target === 'string' && guards.targetStorageIds.includes(target.toLowerCase()) : (stryCov_9fa48("360"), !(stryMutAct_9fa48("363") ? typeof target === 'string' || guards.targetStorageIds.includes(target.toLowerCase()) : stryMutAct_9fa48("362") ? false : stryMutAct_9fa48("361") ? true : (stryCov_9fa48("361", "362", "363"), (stryMutAct_9fa48("365") ? typeof target !== 'string' : stryMutAct_9fa48("364") ? true : (stryCov_9fa48("364", "365"), typeof target === (stryMutAct_9fa48("366") ? "" : (stryCov_9fa48("366"), 'string')))) && guards.targetStorageIds.includes(stryMutAct_9fa48("367") ? target.toUpperCase() : (stryCov_9fa48("367"), target.toLowerCase())))))))) {
      if (stryMutAct_9fa48("368")) {
        {}
      } else {
        stryCov_9fa48("368");
        return stryMutAct_9fa48("369") ? {} : (stryCov_9fa48("369"), {
          problem: stryMutAct_9fa48("370") ? `` : (stryCov_9fa48("370"), `targets storage ${(stryMutAct_9fa48("373") ? typeof target !== 'string' : stryMutAct_9fa48("372") ? false : stryMutAct_9fa48("371") ? true : (stryCov_9fa48("371", "372", "373"), typeof target === (stryMutAct_9fa48("374") ? "" : (stryCov_9fa48("374"), 'string')))) ? target : shown(target)}, which is not among the ${TARGETS_FIELD}`),
          guard: TARGETS_FIELD,
          fit: stryMutAct_9fa48("375") ? "" : (stryCov_9fa48("375"), 'a new dry run to one of the allowed target storages'),
          toolFit: stryMutAct_9fa48("376") ? "" : (stryCov_9fa48("376"), 'start a dry run to one of the allowed target storages')
        });
      }
    }
    if (stryMutAct_9fa48("379") ? guards.maxAgeMinutes === undefined : stryMutAct_9fa48("378") ? false : stryMutAct_9fa48("377") ? true : (stryCov_9fa48("377", "378", "379"), guards.maxAgeMinutes !== undefined)) return ageRefusal(a.stats?.finishedAt as unknown, guards.maxAgeMinutes, now);
    return undefined;
  }
}
function ageRefusal(finishedAt: unknown, max: number, now: number): GuardRefusal | undefined {
  if (stryMutAct_9fa48("380")) {
    {}
  } else {
    stryCov_9fa48("380");
    const limit = stryMutAct_9fa48("381") ? `` : (stryCov_9fa48("381"), `the Max Dry Run Age of ${max} minutes`);
    const fresh = stryMutAct_9fa48("382") ? {} : (stryCov_9fa48("382"), {
      guard: AGE_FIELD,
      fit: stryMutAct_9fa48("383") ? `` : (stryCov_9fa48("383"), `a new dry run of the same transfer, run within ${max} minutes of its end`),
      toolFit: stryMutAct_9fa48("384") ? `` : (stryCov_9fa48("384"), `start a new dry run of the same transfer and run that one within ${max} minutes of its end`)
    });
    if (stryMutAct_9fa48("387") ? finishedAt === null && finishedAt === undefined : stryMutAct_9fa48("386") ? false : stryMutAct_9fa48("385") ? true : (stryCov_9fa48("385", "386", "387"), (stryMutAct_9fa48("389") ? finishedAt !== null : stryMutAct_9fa48("388") ? false : (stryCov_9fa48("388", "389"), finishedAt === null)) || (stryMutAct_9fa48("391") ? finishedAt !== undefined : stryMutAct_9fa48("390") ? false : (stryCov_9fa48("390", "391"), finishedAt === undefined)))) {
      if (stryMutAct_9fa48("392")) {
        {}
      } else {
        stryCov_9fa48("392");
        return stryMutAct_9fa48("393") ? {} : (stryCov_9fa48("393"), {
          problem: stryMutAct_9fa48("394") ? `` : (stryCov_9fa48("394"), `has no finishedAt, so its age cannot be checked against ${limit}`),
          ...fresh
        });
      }
    }
    const time = (stryMutAct_9fa48("397") ? typeof finishedAt === 'string' || TIMESTAMP.test(finishedAt.trim()) : stryMutAct_9fa48("396") ? false : stryMutAct_9fa48("395") ? true : (stryCov_9fa48("395", "396", "397"), (stryMutAct_9fa48("399") ? typeof finishedAt !== 'string' : stryMutAct_9fa48("398") ? true : (stryCov_9fa48("398", "399"), typeof finishedAt === (stryMutAct_9fa48("400") ? "" : (stryCov_9fa48("400"), 'string')))) && TIMESTAMP.test(stryMutAct_9fa48("401") ? finishedAt : (stryCov_9fa48("401"), finishedAt.trim())))) ? Date.parse(stryMutAct_9fa48("402") ? finishedAt : (stryCov_9fa48("402"), finishedAt.trim())) : NaN;
    if (stryMutAct_9fa48("404") ? false : stryMutAct_9fa48("403") ? true : (stryCov_9fa48("403", "404"), Number.isNaN(time))) {
      if (stryMutAct_9fa48("405")) {
        {}
      } else {
        stryCov_9fa48("405");
        return stryMutAct_9fa48("406") ? {} : (stryCov_9fa48("406"), {
          problem: stryMutAct_9fa48("407") ? `` : (stryCov_9fa48("407"), `has a finishedAt that is not a timestamp (${shown(finishedAt)}), so its age cannot be checked against ${limit}`),
          ...fresh
        });
      }
    }
    const ageMs = stryMutAct_9fa48("408") ? now + time : (stryCov_9fa48("408"), now - time);
    if (stryMutAct_9fa48("412") ? ageMs >= -FUTURE_TOLERANCE_MS : stryMutAct_9fa48("411") ? ageMs <= -FUTURE_TOLERANCE_MS : stryMutAct_9fa48("410") ? false : stryMutAct_9fa48("409") ? true : (stryCov_9fa48("409", "410", "411", "412"), ageMs < (stryMutAct_9fa48("413") ? +FUTURE_TOLERANCE_MS : (stryCov_9fa48("413"), -FUTURE_TOLERANCE_MS)))) {
      if (stryMutAct_9fa48("414")) {
        {}
      } else {
        stryCov_9fa48("414");
        return stryMutAct_9fa48("415") ? {} : (stryCov_9fa48("415"), {
          problem: stryMutAct_9fa48("416") ? `` : (stryCov_9fa48("416"), `finished in the future (${String(finishedAt)}, ${Math.ceil(stryMutAct_9fa48("417") ? -ageMs * 60_000 : (stryCov_9fa48("417"), (stryMutAct_9fa48("418") ? +ageMs : (stryCov_9fa48("418"), -ageMs)) / 60_000))} minutes ahead of this machine's clock), so its age cannot be checked against ${limit}`),
          ...fresh
        });
      }
    }
    // Whole minutes, as the message says them.
    const minutes = Math.floor(stryMutAct_9fa48("419") ? Math.max(0, ageMs) * 60_000 : (stryCov_9fa48("419"), (stryMutAct_9fa48("420") ? Math.min(0, ageMs) : (stryCov_9fa48("420"), Math.max(0, ageMs))) / 60_000));
    if (stryMutAct_9fa48("424") ? minutes <= max : stryMutAct_9fa48("423") ? minutes >= max : stryMutAct_9fa48("422") ? false : stryMutAct_9fa48("421") ? true : (stryCov_9fa48("421", "422", "423", "424"), minutes > max)) return stryMutAct_9fa48("425") ? {} : (stryCov_9fa48("425"), {
      problem: stryMutAct_9fa48("426") ? `` : (stryCov_9fa48("426"), `finished ${minutes} minutes ago, more than ${limit}`),
      ...fresh
    });
    return undefined;
  }
}

/**
 * Refuses the item when the finished dry run breaks a guard. Call it before any request that could start the
 * real job. The refusal says what the dry run has, what is allowed and how to go on; in tool use it tells a
 * model that the guards are the workflow's, not the call's.
 */
export function checkRunGuards(ctx: IExecuteFunctions, dryRun: Job, guards: RunGuards, itemIndex: number, now = Date.now()): void {
  if (stryMutAct_9fa48("427")) {
    {}
  } else {
    stryCov_9fa48("427");
    const refusal = guardRefusal(dryRun, guards, now);
    if (stryMutAct_9fa48("430") ? false : stryMutAct_9fa48("429") ? true : stryMutAct_9fa48("428") ? refusal : (stryCov_9fa48("428", "429", "430"), !refusal)) return;
    const hint = isToolUse(ctx.getNode()) ? stryMutAct_9fa48("431") ? `` : (stryCov_9fa48("431"), `The ${refusal.guard} guard is set in the workflow; a tool call cannot change it. Tell the user why this dry run was refused. To go on, they change the guard in the workflow, or you ${refusal.toolFit}.`) : stryMutAct_9fa48("432") ? `` : (stryCov_9fa48("432"), `To go on, change ${refusal.guard} in the node's Guards (or remove it), or make ${refusal.fit} and run that one.`);
    throw operationError(ctx.getNode(), stryMutAct_9fa48("433") ? `` : (stryCov_9fa48("433"), `Not started: dry run ${dryRun.id} ${refusal.problem} [item ${itemIndex}]`), stryMutAct_9fa48("434") ? {} : (stryCov_9fa48("434"), {
      itemIndex,
      description: stryMutAct_9fa48("435") ? `` : (stryCov_9fa48("435"), `No job was started. ${hint}`)
    }));
  }
}