import { allCountries, isCountryCode, regionsOf } from './places';
import type { FulfilmentSettings, Place } from './pricing';

// Before issue 36 countries and regions were typed ('USA', 'U.S.A.', 'United States', 'germany').
// Orders keep what was typed (the pages show it as it was); the shop's fulfilment settings are read
// through `upgradeFulfilment`, which turns each place into codes and drops what cannot be read
// (failing closed: a place that cannot be read reaches no one, it never becomes 'anywhere').
// scripts/lib/migrate-places.ts stores the upgrade. The checkout's pre-fill reads an old order's
// country with `legacyCountryCode` too.

/** ISO 3166-1 alpha-3 codes, which people type for a country ('GBR'): read for the settings' upgrade only (server side). */
const ALPHA3 = `
  ABW:AW AFG:AF AGO:AO AIA:AI ALA:AX ALB:AL AND:AD ARE:AE ARG:AR ARM:AM ASM:AS ATA:AQ ATF:TF ATG:AG AUS:AU AUT:AT
  AZE:AZ BDI:BI BEL:BE BEN:BJ BES:BQ BFA:BF BGD:BD BGR:BG BHR:BH BHS:BS BIH:BA BLM:BL BLR:BY BLZ:BZ BMU:BM BOL:BO
  BRA:BR BRB:BB BRN:BN BTN:BT BVT:BV BWA:BW CAF:CF CAN:CA CCK:CC CHE:CH CHL:CL CHN:CN CIV:CI CMR:CM COD:CD COG:CG
  COK:CK COL:CO COM:KM CPV:CV CRI:CR CUB:CU CUW:CW CXR:CX CYM:KY CYP:CY CZE:CZ DEU:DE DJI:DJ DMA:DM DNK:DK DOM:DO
  DZA:DZ ECU:EC EGY:EG ERI:ER ESH:EH ESP:ES EST:EE ETH:ET FIN:FI FJI:FJ FLK:FK FRA:FR FRO:FO FSM:FM GAB:GA GBR:GB
  GEO:GE GGY:GG GHA:GH GIB:GI GIN:GN GLP:GP GMB:GM GNB:GW GNQ:GQ GRC:GR GRD:GD GRL:GL GTM:GT GUF:GF GUM:GU GUY:GY
  HKG:HK HMD:HM HND:HN HRV:HR HTI:HT HUN:HU IDN:ID IMN:IM IND:IN IOT:IO IRL:IE IRN:IR IRQ:IQ ISL:IS ISR:IL ITA:IT
  JAM:JM JEY:JE JOR:JO JPN:JP KAZ:KZ KEN:KE KGZ:KG KHM:KH KIR:KI KNA:KN KOR:KR KWT:KW LAO:LA LBN:LB LBR:LR LBY:LY
  LCA:LC LIE:LI LKA:LK LSO:LS LTU:LT LUX:LU LVA:LV MAC:MO MAF:MF MAR:MA MCO:MC MDA:MD MDG:MG MDV:MV MEX:MX MHL:MH
  MKD:MK MLI:ML MLT:MT MMR:MM MNE:ME MNG:MN MNP:MP MOZ:MZ MRT:MR MSR:MS MTQ:MQ MUS:MU MWI:MW MYS:MY MYT:YT NAM:NA
  NCL:NC NER:NE NFK:NF NGA:NG NIC:NI NIU:NU NLD:NL NOR:NO NPL:NP NRU:NR NZL:NZ OMN:OM PAK:PK PAN:PA PCN:PN PER:PE
  PHL:PH PLW:PW PNG:PG POL:PL PRI:PR PRK:KP PRT:PT PRY:PY PSE:PS PYF:PF QAT:QA REU:RE ROU:RO RUS:RU RWA:RW SAU:SA
  SDN:SD SEN:SN SGP:SG SGS:GS SHN:SH SJM:SJ SLB:SB SLE:SL SLV:SV SMR:SM SOM:SO SPM:PM SRB:RS SSD:SS STP:ST SUR:SR
  SVK:SK SVN:SI SWE:SE SWZ:SZ SXM:SX SYC:SC SYR:SY TCA:TC TCD:TD TGO:TG THA:TH TJK:TJ TKL:TK TKM:TM TLS:TL TON:TO
  TTO:TT TUN:TN TUR:TR TUV:TV TWN:TW TZA:TZ UGA:UG UKR:UA UMI:UM URY:UY USA:US UZB:UZ VAT:VA VCT:VC VEN:VE VGB:VG
  VIR:VI VNM:VN VUT:VU WLF:WF WSM:WS YEM:YE ZAF:ZA ZMB:ZM ZWE:ZW
`;

/** Other names people type for a country, after `legacyKey`. */
const ALIASES: Record<string, string> = {
  usa: 'US', 'united states of america': 'US', america: 'US', 'the united states': 'US', 'united states america': 'US',
  uk: 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB',
  'the netherlands': 'NL', holland: 'NL', deutschland: 'DE', 'czech republic': 'CZ', turkey: 'TR', russia: 'RU',
  'russian federation': 'RU', korea: 'KR', 'republic of korea': 'KR', 'ivory coast': 'CI', burma: 'MM', 'hong kong': 'HK',
  macau: 'MO', macao: 'MO', vatican: 'VA', swaziland: 'SZ', 'cape verde': 'CV', 'east timor': 'TL', uae: 'AE',
};

/** Case, accents, dots, '&' and extra spaces ignored: 'U.S.A.' is 'usa', 'Bosnia & Herzegovina' is 'bosnia and herzegovina'. */
function legacyKey(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\bst\.\s*/g, 'saint ')
    .replace(/[.'’]/g, '')
    .replace(/[\s,()-]+/g, ' ')
    .trim();
}

let byKey: Map<string, string> | undefined;
function lookup(): Map<string, string> {
  if (byKey) return byKey;
  byKey = new Map(Object.entries(ALIASES));
  for (const { code, name } of allCountries()) {
    byKey.set(code.toLowerCase(), code);
    byKey.set(legacyKey(name), code);
  }
  return byKey;
}

let byAlpha3: Map<string, string> | undefined;
function alpha3Code(typed: string): string | undefined {
  byAlpha3 ??= new Map(ALPHA3.trim().split(/\s+/).map((pair) => [pair.slice(0, 3).toLowerCase(), pair.slice(4)]));
  return byAlpha3.get(legacyKey(typed));
}

/** The code of a country as people typed it ('USA', 'u.s.a.', 'United States', 'us'), or undefined ('Untied States'). */
export function legacyCountryCode(typed: string | undefined): string | undefined {
  if (!typed) return undefined;
  if (isCountryCode(typed)) return typed;
  return lookup().get(legacyKey(typed));
}

/** The code of a region of `country` as typed ('il', 'Illinois'), or undefined. */
export function legacyRegionCode(country: string, typed: string | undefined): string | undefined {
  if (!typed) return undefined;
  const key = legacyKey(typed);
  return regionsOf(country).find((r) => r.code.toLowerCase() === key || legacyKey(r.name) === key)?.code;
}

export interface FulfilmentUpgrade {
  /** The settings with codes (to be parsed by FulfilmentSettingsSchema like any stored settings). */
  settings: unknown;
  /** What was rewritten ('USA -> US'), for the migration's report and the log. */
  changed: string[];
  /** What could not be read and now reaches no one. */
  dropped: string[];
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Stored fulfilment settings from before issue 36, with every country and region as a code. Settings
 * that already use codes come back unchanged (empty `changed` and `dropped`).
 */
export function upgradeFulfilment(stored: unknown): FulfilmentUpgrade {
  const changed: string[] = [];
  const dropped: string[] = [];
  if (!isObject(stored)) return { settings: stored, changed, dropped };
  const settings = structuredClone(stored) as Loose;

  /** One place as codes, or undefined when it cannot be read. `*` stays everywhere. */
  const upgradePlace = (place: unknown, where: string): Place | undefined => {
    if (!isObject(place) || typeof place.country !== 'string') return undefined;
    const typed = place.country.trim();
    if (typed === '*') return { country: '*' };
    const country = legacyCountryCode(typed) ?? alpha3Code(typed);
    if (!country) {
      dropped.push(`${where}: country '${typed}'`);
      return undefined;
    }
    if (country !== typed) changed.push(`${where}: ${typed} -> ${country}`);
    if (typeof place.region !== 'string' || !place.region.trim()) return { country };
    const region = legacyRegionCode(country, place.region.trim());
    if (!region) {
      dropped.push(`${where}: region '${place.region}' of ${country}`);
      return undefined;
    }
    if (region !== place.region) changed.push(`${where}: region ${place.region} -> ${region}`);
    return { country, region };
  };
  const key = (p: Place) => `${p.country}/${p.region ?? ''}`;

  const local = settings.local;
  if (isObject(local) && typeof local.country === 'string' && local.country.trim() !== '') {
    const place = upgradePlace({ country: local.country }, 'local delivery');
    if (place && place.country !== '*') local.country = place.country;
    else {
      // '' would mean every country: a country that cannot be read turns local delivery off instead.
      local.country = '';
      if (local.enabled === true) dropped.push('local delivery: turned off');
      local.enabled = false;
    }
  }

  const post = settings.post;
  if (isObject(post) && Array.isArray(post.zones)) {
    const zones = post.zones.flatMap((zone: unknown) => {
      if (!isObject(zone) || !Array.isArray(zone.places)) return [zone];
      const name = typeof zone.name === 'string' ? zone.name : 'a zone';
      const seen = new Set<string>();
      const places = zone.places.flatMap((p: unknown) => {
        const place = upgradePlace(p, `zone ${name}`);
        if (!place || seen.has(key(place))) return [];
        seen.add(key(place));
        return [place];
      });
      if (places.length === 0) {
        dropped.push(`zone ${name}: no place left`);
        return [];
      }
      return [{ ...zone, places }];
    });
    post.zones = zones;
    if (post.enabled === true && zones.length === 0) {
      post.enabled = false;
      dropped.push('post: turned off (no zone left)');
    }
  }

  const tax = settings.tax;
  if (isObject(tax) && Array.isArray(tax.regions)) {
    tax.regions = tax.regions.flatMap((r: unknown) => {
      const place = upgradePlace(r, 'tax rate');
      return place && isObject(r) ? [{ ...place, rateBp: r.rateBp }] : [];
    });
  }
  return { settings, changed, dropped };
}

/** The fulfilment settings' places, all codes? (The settings page and the migration's check.) */
export function usesCodes(settings: FulfilmentSettings): boolean {
  const ok = (p: Place) => p.country === '*' || (isCountryCode(p.country) && (!p.region || regionsOf(p.country).some((r) => r.code === p.region)));
  return (settings.local.country === '' || isCountryCode(settings.local.country)) && settings.post.zones.every((z) => z.places.every(ok)) && settings.tax.regions.every(ok);
}
