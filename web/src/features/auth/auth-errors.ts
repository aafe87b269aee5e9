// Short, human messages for the identity provider's error codes (the spec lists the codes only).
const MESSAGES: Record<string, string> = {
  'auth/unauthorized-domain': 'Google sign-in is not enabled for this site.',
  'auth/popup-blocked': 'Your browser blocked the sign-in window. Allow pop-ups and try again.',
  'auth/popup-closed-by-user': 'The sign-in window was closed before you finished.',
  'auth/cancelled-popup-request': 'Another sign-in window is already open.',
  'auth/web-storage-unsupported': 'Sign-in needs cookies and site storage. Enable them and try again.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection.',
  'auth/internal-error': 'Google sign-in could not be completed right now. Try again or use email and password.',
  'auth/invalid-api-key': 'Sign-in is misconfigured on this site.',
  'auth/auth-domain-config-required': 'Sign-in is misconfigured on this site.',
  'auth/operation-not-supported-in-this-environment': 'Google sign-in does not work in this browser.',
  'auth/operation-not-allowed': 'This sign-in method is not enabled.',
  'auth/wrong-password': 'Wrong email or password.',
  'auth/invalid-credential': 'Wrong email or password.',
  'auth/invalid-login-credentials': 'Wrong email or password.',
  'auth/user-not-found': 'Wrong email or password.',
  'auth/invalid-email': 'Invalid email format.',
  'auth/weak-password': 'Password is too weak.',
  'auth/email-already-in-use': 'An account with this email already exists.',
  'auth/user-disabled': 'This account has been disabled.',
  'auth/too-many-requests': 'Too many attempts. Wait a moment and try again.',
  'auth/missing-password': 'Enter your password.',
};

export function authErrorMessage(error: unknown): string {
  const code = (error as { code?: string } | null)?.code ?? '';
  return MESSAGES[code] ?? 'Something went wrong while signing in. Please try again.';
}
