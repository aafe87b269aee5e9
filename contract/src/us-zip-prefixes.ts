// Which US state, territory or armed-forces region a ZIP code belongs to (issue 55: a California ZIP
// code with the state OR was taxed as Oregon). By the ZIP code's first three digits, the USPS's
// sectional centers: one line per region of places.ts, each a list of prefixes and prefix ranges,
// plus the rare five-digit ZIP code that lies across a border (Fishers Island, NY: 06390).
// Compact on purpose: a prefix the USPS has not assigned inside a range is accepted for that region.

const PREFIXES: Readonly<Record<string, string>> = {
  AL: '350-369', AK: '995-999', AZ: '850-865', AR: '716-729', CA: '900-961', CO: '800-816', CT: '060-069',
  DE: '197-199', DC: '200,202-205,569', FL: '320-339,341-349', GA: '300-319,398-399', HI: '967-968', ID: '832-838',
  IL: '600-629', IN: '460-479', IA: '500-528', KS: '660-679', KY: '400-427', LA: '700-714', ME: '039-049',
  MD: '206-219', MA: '010-027,055', MI: '480-499', MN: '550-567', MS: '386-397', MO: '630-658', MT: '590-599',
  NE: '680-693', NV: '889-898', NH: '030-038', NJ: '070-089', NM: '870-884', NY: '005,06390,100-149', NC: '270-289',
  ND: '580-588', OH: '430-459', OK: '730-731,734-749', OR: '970-979', PA: '150-196', RI: '028-029', SC: '290-299',
  SD: '570-577', TN: '370-385', TX: '733,750-799,885', UT: '840-847', VT: '050-054,056-059', VA: '201,220-246',
  WA: '980-994', WV: '247-268', WI: '530-549', WY: '820-831',
  AS: '96799', GU: '969', MP: '969', PR: '006-007,009', VI: '008', AA: '340', AE: '090-098', AP: '962-966',
};

type Rule = { from: string; to: string };
let parsed: Map<string, Rule[]> | undefined;
function rules(): Map<string, Rule[]> {
  return (parsed ??= new Map(Object.entries(PREFIXES).map(([region, list]) => [region, list.split(',').map((part) => {
    const [from, to = from] = part.split('-');
    return { from: from!, to: to! };
  })])));
}

/** The regions PREFIXES knows (every US region of places.ts: the unit test checks). */
export const zipPrefixRegions = (): string[] => [...rules().keys()];

/**
 * Whether the ZIP code (5 digits, or ZIP+4: the first 5 are read) lies in `region`. A region the
 * table does not name is not checked (true).
 */
export function zipBelongsTo(region: string, zipcode: string): boolean {
  const list = rules().get(region);
  if (!list) return true;
  const zip5 = zipcode.replace(/\D/g, '').slice(0, 5);
  return list.some(({ from, to }) => {
    const head = zip5.slice(0, from.length);
    return head >= from && head <= to;
  });
}
