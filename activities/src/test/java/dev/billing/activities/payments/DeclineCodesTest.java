package dev.billing.activities.payments;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeclineCodesTest {

  @Test
  void lostStolenExpiredAndGenericDeclinesAreHard() {
    assertThat(DeclineCodes.kindOf("card_declined")).isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("generic_decline")).isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("lost_card")).isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("stolen_card")).isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("expired_card")).isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("account_closed")).isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("EXPIRED_CARD")).isEqualTo(DeclineKind.HARD);
  }

  @Test
  void temporaryAndUnknownDeclinesAreSoft() {
    assertThat(DeclineCodes.kindOf("insufficient_funds")).isEqualTo(DeclineKind.SOFT);
    assertThat(DeclineCodes.kindOf("processing_error")).isEqualTo(DeclineKind.SOFT);
    assertThat(DeclineCodes.kindOf("try_again_later")).isEqualTo(DeclineKind.SOFT);
    assertThat(DeclineCodes.kindOf("do_not_honor")).isEqualTo(DeclineKind.SOFT);
    assertThat(DeclineCodes.kindOf("something_new")).isEqualTo(DeclineKind.SOFT);
    assertThat(DeclineCodes.kindOf(null)).isEqualTo(DeclineKind.SOFT);
  }

  @Test
  void theIssuersAdviceWinsThenTheDeclineCodeThenTheErrorCode() {
    assertThat(DeclineCodes.kindOf("do_not_try_again", "insufficient_funds", "card_declined"))
        .isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("confirm_card_data", "do_not_honor", "card_declined"))
        .isEqualTo(DeclineKind.HARD);
    assertThat(DeclineCodes.kindOf("try_again_later", "generic_decline", "card_declined"))
        .isEqualTo(DeclineKind.SOFT);
    assertThat(DeclineCodes.kindOf(null, "insufficient_funds", "card_declined"))
        .isEqualTo(DeclineKind.SOFT);
    assertThat(DeclineCodes.kindOf(null, null, "expired_card")).isEqualTo(DeclineKind.HARD);
  }
}
