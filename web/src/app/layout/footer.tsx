import { NewsletterForm } from '../../features/subscriptions/newsletter-form';

const ANCHORS = [
  { href: '#home', label: 'Home' },
  { href: '#services', label: 'Services' },
  { href: '#about', label: 'About Us' },
  { href: '#contact', label: 'Contact' },
];

const LEGAL = [
  { href: '#privacy', label: 'Privacy Policy' },
  { href: '#terms', label: 'Terms of Service' },
];

const SOCIAL = [
  { href: 'https://www.facebook.com/', label: 'Facebook', path: 'M14 8h3V4h-3a4 4 0 0 0-4 4v2H8v4h2v8h4v-8h3l1-4h-4V8Z' },
  { href: 'https://x.com/', label: 'X (Twitter)', path: 'M4 4l16 16M20 4 4 20' },
  { href: 'https://www.instagram.com/', label: 'Instagram', path: 'M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4Zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm5.5-1.5h.01' },
];

function LinkList({ links, className }: { links: { href: string; label: string }[]; className: string }) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.href}><a href={link.href} className="hover:text-primary">{link.label}</a></li>
      ))}
    </ul>
  );
}

export function Footer() {
  // Below the first screen on most pages: skipped (not styled, laid out or painted) until it nears
  // the viewport, with its last height kept (issue 60).
  return (
    <footer className="mt-16 bg-secondary text-gray-200 [contain-intrinsic-block-size:auto_480px] [content-visibility:auto] md:[contain-intrinsic-block-size:auto_300px]">
      <div className="mx-auto grid max-w-content gap-10 px-4 py-12 sm:px-8 md:grid-cols-2">
        <div>
          <p className="text-lg font-bold text-white">Bookstore</p>
          <p className="mt-2 max-w-sm text-sm text-gray-300">Hand-picked books, delivered to your door. Pay cash on delivery.</p>
          <LinkList links={ANCHORS} className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm" />
        </div>
        <div>
          <p className="font-semibold text-white">Stay updated with our latest books and offers!</p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-content flex-col items-center justify-between gap-4 px-4 py-6 text-sm sm:flex-row sm:px-8">
          <LinkList links={LEGAL} className="flex gap-6" />
          <ul className="flex gap-4">
            {SOCIAL.map((s) => (
              <li key={s.label}>
                <a href={s.href} target="_blank" rel="noopener noreferrer" aria-label={s.label} className="grid size-9 place-items-center rounded-full ring-1 ring-gray-500 hover:bg-primary hover:text-secondary">
                  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d={s.path} /></svg>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
