package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Period;
import org.junit.jupiter.api.Test;

class SettingsTest {

  @Test
  void defaultsKeepReceiptsTwelveMonths() {
    StoreSettings settings = StoreSettings.defaults(Fixtures.KEY);

    assertThat(settings.receiptRetention()).isEqualTo(Period.ofMonths(12));
    assertThat(settings.pageTokenKey()).isEqualTo(Fixtures.KEY);
  }

  @Test
  void theKeyIsCopiedInAndOutAndNeverPrinted() {
    byte[] key = Fixtures.KEY.clone();
    StoreSettings settings = StoreSettings.defaults(key);
    key[0] = 'X';
    settings.pageTokenKey()[1] = 'Y';

    assertThat(settings.pageTokenKey()).isEqualTo(Fixtures.KEY);
    assertThat(settings).isEqualTo(StoreSettings.defaults(Fixtures.KEY));
    assertThat(settings.toString())
        .isEqualTo(
            "StoreSettings[receiptRetention=P12M, pageTokenKey=(32 bytes), dateKeyShards=16]");
  }

  @Test
  void rejectsShortKeysAndNonPositiveRetention() {
    assertThatThrownBy(() -> StoreSettings.defaults(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pageTokenKey must be at least 32 bytes, got 31");
    assertThatThrownBy(() -> new StoreSettings(Period.ZERO, Fixtures.KEY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StoreSettings(Period.ofMonths(-1), Fixtures.KEY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tableNamesDefaultAndValidate() {
    assertThat(TableNames.defaults()).isEqualTo(new TableNames("billing", "billing-history"));
    assertThatThrownBy(() -> new TableNames("billing", "billing"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TableNames("bi", "billing-history"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TableNames("billing", "billing history"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
