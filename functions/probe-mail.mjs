import { initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
process.env.FIRESTORE_EMULATOR_HOST='127.0.0.1:8080';
const db = getFirestore(initializeApp({ projectId: 'demo-bookstore' }));
const all = await db.collection('mail').count().get();
const pending = await db.collection('mail').where('delivery.state','==','PENDING').count().get();
const orders = await db.collection('orders').count().get();
console.log(new Date().toISOString(), 'mail', all.data().count, 'pending', pending.data().count, 'orders', orders.data().count);
