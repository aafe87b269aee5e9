import { COMMON_PASSWORDS_TEXT } from './common-passwords';

// Is a new password one an attacker tries first? A list alone says little about 12+ character
// passwords (only ten of the top 10,000 are that long), so the check also looks through the
// padding people add to reach a length rule: `password1234`, `!!qwerty!!2024`, `monkeymonkey`.

let common: Set<string> | undefined;
const list = () => (common ??= new Set(COMMON_PASSWORDS_TEXT.split('\n')));

/** True when the password (any case) is common, a common one padded with digits or symbols, a repetition, or mostly one or two characters. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (list().has(lower)) return true;
  // Fewer than 5 different characters: `aaaaaaaaaaaa`, `abababababab`, `111122223333`.
  if (new Set(lower).size < 5) return true;
  // Strip digits and symbols at both ends: nothing left (`123456789012`) or a common core.
  const core = lower.replace(/^[^a-z]+|[^a-z]+$/g, '');
  if (core.length === 0 || list().has(core)) return true;
  // One common word written again and again: `passwordpassword`, `qwertyqwertyqwerty`.
  for (let size = 1; size <= core.length / 2; size++) {
    if (core.length % size === 0 && core.slice(0, size).repeat(core.length / size) === core && (size < 4 || list().has(core.slice(0, size)))) return true;
  }
  return isRun(lower);
}

/** Runs along the alphabet, the digits or one keyboard row, either way: `abcdefghijkl`, `987654321098`, `asdfghjklasd`. */
function isRun(value: string): boolean {
  const rows = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];
  const stripped = value.replace(/[^a-z0-9]/g, '');
  return rows.some((row) => {
    const twice = row + row;
    // Every 4-character window of the password is a window of the row (either direction).
    const reversed = [...twice].reverse().join('');
    for (let i = 0; i + 4 <= stripped.length; i++) {
      const part = stripped.slice(i, i + 4);
      if (!twice.includes(part) && !reversed.includes(part)) return false;
    }
    return stripped.length >= 4;
  });
}
