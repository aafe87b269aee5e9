import type { MessageResponse } from '@bookstore/contract';
import { apiFetch } from '../../lib/api-client';

// POST /api/newsletter: the footer's form (on every page's first load: no useMutation, see newsletter-form.tsx).
export const signUpForNewsletter = (email: string) => apiFetch<MessageResponse>('/api/newsletter', { method: 'POST', body: { email } });
