/**
 * The JSON shapes of the records that the API answers and the webhook deliveries send alike: one
 * definition, so an event POSTed to an endpoint is the event {@code GET /v1/events/{id}} answers.
 * Plain records of strings and numbers, serialised by any Jackson mapper the same way.
 */
package dev.billing.activities.views;
