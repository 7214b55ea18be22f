// What the case browser tests share: the three signed-in parties (the
// e2e case customer, admin, the demo lawyer), the 'E2E Tenancy' case type,
// and a fresh 10 h consultancy row for the customer, so each run starts
// from the same hours whatever an earlier run left.
import assert from 'node:assert/strict';
import { apiCall, newPage, signIn, storedSession } from './helpers.mjs';

export const CUSTOMER = 'case-customer@example.com';
export const ADMIN = 'admin@example.com';
export const LAWYER = 'lawyer@example.com';
export const CASE_TYPE = 'E2E Tenancy';

/** The customer's hour-based (service 1) row in force. */
export async function hourRow(page, uid) {
  const res = await apiCall(page, 'GET', `/customer/${uid}/`);
  assert.equal(res.status, 200);
  return res.body.purchased_services.find((r) => r.service.id === 1 && r.active && !r.expired);
}

/** Opens and signs in the three pages and prepares the case type and hours. */
export async function caseWorld() {
  const pages = [await newPage(), await newPage(), await newPage()];
  const close = async () => {
    for (const p of pages) await p.context.close();
  };
  try {
    return await prepare(pages, close);
  } catch (err) {
    await close();
    throw err;
  }
}

async function prepare(pages, close) {
  const [cp, ap, lp] = pages.map((p) => p.page);
  await signIn(cp, CUSTOMER, '/user/');
  const uid = (await storedSession(cp)).user.uid;
  await signIn(ap, ADMIN, '/admin/');
  await signIn(lp, LAWYER, '/lawyer/');

  let types = (await apiCall(ap, 'GET', '/typeofcase/list/')).body;
  if (!types.some((t) => t.name === CASE_TYPE)) {
    assert.equal((await apiCall(ap, 'POST', '/typeofcase/', { name: CASE_TYPE, description: '' })).status, 201);
    types = (await apiCall(ap, 'GET', '/typeofcase/list/')).body;
  }
  const caseType = types.find((t) => t.name === CASE_TYPE).id;
  for (const row of (await apiCall(ap, 'GET', `/customer/${uid}/`)).body.purchased_services) {
    await apiCall(ap, 'DELETE', `/customer/purchase-services/delete/${row.id}/`);
  }
  const bought = await apiCall(ap, 'POST', '/customer/purchase-services/', { customer_uid: uid, custom: true, name: 'E2E hours', hours: '10', price: '1000', duration_days: 30 });
  assert.equal(bought.status, 201, JSON.stringify(bought.body));
  return {
    customer: pages[0],
    admin: pages[1],
    lawyer: pages[2],
    cp,
    ap,
    lp,
    uid,
    caseType,
    close,
  };
}
