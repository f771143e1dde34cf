/**
 * Membership inference against personalized learning: an eavesdropper on the network inverts every broadcast model of
 * coordinate descent into the sender's local gradient ({@link org.dpdl4j.attacks.membership.BroadcastInverter}) and
 * scores candidate records by how well their own gradients align with it
 * ({@link org.dpdl4j.attacks.membership.GradientAlignmentMembership}); {@link org.dpdl4j.attacks.membership.Auc} measures
 * how well the scores separate members from non-members.
 */
package org.dpdl4j.attacks.membership;
