// HTML the shop writes itself (mails, receipts, Z-reports): every text put into it is escaped here.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute's value, HTML-escaped. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);

/** A plain-text mail's body as HTML: a paragraph per blank-line-separated block, its lines kept. */
export const paragraphsHtml = (text: string): string => text.split('\n\n').map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n');
