import { Link } from 'react-router-dom';
// Under Vite's inline limit: a data: URI in the HTML, so the banner paints with the first paint.
import bannerImage from './banner.svg';

export function Banner() {
  const subscribe = () => {
    const field = document.getElementById('newsletter-email');
    field?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    field?.focus({ preventScroll: true });
  };
  return (
    <section id="home" className="flex flex-col-reverse items-center justify-between gap-10 py-12 md:flex-row md:gap-12 md:py-16">
      <div className="w-full md:w-1/2">
        <h1 className="mb-6 text-3xl font-semibold leading-tight sm:text-4xl md:text-5xl">New Releases This Week</h1>
        <p className="mb-8 text-gray-700">
          It&apos;s time to update your reading list with some of the latest and greatest releases in the literary world.
          From heart-pumping thrillers to captivating memoirs, this week&apos;s new releases offer something for everyone.
        </p>
        <div className="flex flex-wrap gap-4">
          <button type="button" onClick={subscribe} className="rounded-md bg-primary px-8 py-3 font-semibold text-secondary hover:bg-secondary hover:text-white">
            Subscribe
          </button>
          <Link to="/books" className="rounded-md border-2 border-secondary px-6 py-2.5 font-semibold text-secondary hover:bg-secondary hover:text-white">
            Browse all books
          </Link>
        </div>
      </div>
      <div className="flex w-full justify-center md:w-1/2 md:justify-end">
        <img src={bannerImage} alt="A stack of new books" width={480} height={360} fetchPriority="high" className="h-auto w-full max-w-md" />
      </div>
    </section>
  );
}
