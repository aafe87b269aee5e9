// The service worker does not precache sweetalert2 (web/pwa.config.ts): it is kept once used. A
// shopper offline before any alert was shown still gets the message, as this plain notice.

export function plainNotice(title: string, text: string | undefined, timer: number): void {
  const notice = document.createElement('div');
  notice.setAttribute('role', 'status');
  notice.className = 'fixed right-4 top-4 z-50 max-w-xs rounded-md bg-white px-4 py-3 text-sm shadow-lg ring-1 ring-gray-200';
  notice.textContent = text ? `${title}. ${text}` : title;
  document.body.append(notice);
  setTimeout(() => notice.remove(), timer);
}
