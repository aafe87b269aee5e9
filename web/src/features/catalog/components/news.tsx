import { Carousel } from '../../../components/ui/carousel';

export const NEWS = [
  { id: 1, title: 'Global Climate Summit Calls for Urgent Action', description: 'World leaders gather to discuss new climate targets, with a renewed push for rapid reductions in emissions and support for the most exposed regions.', image: '/images/news-1.svg' },
  { id: 2, title: 'Breakthrough in AI Technology Announced', description: 'A research team unveils a model that explains its own reasoning, a step researchers say could make AI systems easier to trust and to audit.', image: '/images/news-2.svg' },
  { id: 3, title: 'New Space Mission Aims to Explore Distant Planets', description: 'An international mission sets out to study the atmospheres of distant worlds, looking for the chemical signatures of water and weather.', image: '/images/news-3.svg' },
  { id: 4, title: 'Stock Markets Reach Record Highs Amid Economic Recovery', description: 'Markets climbed to new highs this week as employment figures beat expectations and inflation continued its slow decline.', image: '/images/news-4.svg' },
  { id: 5, title: 'Innovative New Smartphone Released by Leading Tech Company', description: 'The latest phone promises a week of battery life and a repairable design, answering years of requests from owners and repair shops.', image: '/images/news-5.svg' },
];

export function News() {
  return (
    // Below the first screen: not laid out or painted until scrolled near.
    <section className="py-10 [contain-intrinsic-block-size:auto_520px] [content-visibility:auto]" aria-labelledby="news">
      <h2 id="news" className="mb-4 text-2xl font-bold md:mb-6 md:text-3xl">News</h2>
      <Carousel
        label="News"
        items={NEWS.map((item) => ({
          key: String(item.id),
          node: (
            <article className="flex h-full flex-col-reverse items-center gap-6 sm:flex-row sm:justify-between">
              <div className="py-2">
                <h3 className="mb-3 text-lg font-medium hover:text-accent">{item.title}</h3>
                <div className="mb-4 h-1 w-12 bg-primary" />
                <p className="text-sm text-gray-700">{item.description}</p>
              </div>
              <img src={item.image} alt="" width={120} height={120} loading="lazy" className="size-30 shrink-0 rounded-lg" />
            </article>
          ),
        }))}
      />
    </section>
  );
}
