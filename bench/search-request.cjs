/* global module, process */
'use strict';

/**
 * autocannon setupRequest (a CommonJS file, because autocannon's worker threads load it with require): each request
 * searches for the next term of BENCH_SEARCH_TERMS, so the benchmark measures the search itself rather than one
 * query that every cache along the way has already seen.
 */
const terms = JSON.parse(process.env.BENCH_SEARCH_TERMS || '["run"]');
const base = process.env.BENCH_SEARCH_PATH || '/api/events';
let next = Math.floor(Math.random() * terms.length);

module.exports = function setupRequest(request) {
  next = (next + 1) % terms.length;
  request.path = `${base}?q=${encodeURIComponent(terms[next])}`;
  return request;
};
