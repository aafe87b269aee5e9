import { Link } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button';
// Under Vite's inline limit: a data: URI in the HTML, so the banner paints with the first paint.
import bannerImage from './banner.svg';

export function Banner() {
  const subscribe = () => {
    const field = document.getElementById('newsletter-email');
    field?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    field?.focus({ preventScroll: true });
  };
  return (
    <section id="home" className="flex items-center justify-between gap-12 py-6 md:py-16">
      <div className="w-full md:w-1/2">
        <h1 className="mb-4 text-3xl font-bold leading-tight md:mb-6 md:text-4xl">New Releases This Week</h1>
        <p className="mb-6 text-gray-700 md:mb-8">
          It&apos;s time to update your reading list with some of the latest and greatest releases in the literary world.
          From heart-pumping thrillers to captivating memoirs, this week&apos;s new releases offer something for everyone.
        </p>
        <div className="flex flex-wrap gap-4">
          <button type="button" onClick={subscribe} className={buttonClass('primary', 'md', 'md:px-6 md:py-3 md:text-base')}>
            Subscribe
          </button>
          <Link to="/books" className={buttonClass('secondary', 'md', 'md:px-6 md:py-3 md:text-base')}>
            Browse All Books
          </Link>
        </div>
      </div>
      {/* Decoration: not on phones, where the first screen is for the books. */}
      <div className="hidden w-1/2 justify-end md:flex">
        <img src={bannerImage} alt="A stack of new books" width={480} height={360} fetchPriority="high" className="h-auto w-full max-w-md" />
      </div>
    </section>
  );
}
